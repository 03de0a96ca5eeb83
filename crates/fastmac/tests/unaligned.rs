//! Unaligned input on every path: messages, nonces and tags placed at every
//! offset 0..63 of a 64-byte aligned buffer, through the one-shot, verify,
//! streaming and run-time-chosen (`DynMac`) paths, at all four tag lengths.
//!
//! OpenSSH asked for UMAC testing on strict-alignment machines
//! (Alpha, Itanium); a backend that loads words straight from the message
//! must cope with any address. The RFC 4418 rows are checked against their
//! known tags; messages around the NH block (32 B) and L1 chunk (1 KiB)
//! boundaries against their tag at offset 0.

use crate::common;

use fastmac::Algorithm;
use fastmac::umac::{TagLen, Umac, UmacTagLen};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Every offset from a 64-byte boundary: a cache line, and the widest vector
/// load a backend may use.
const OFFSETS: usize = 64;
const KEY: &[u8; 16] = b"abcdefghijklmnop";

/// A buffer with a 64-byte aligned region of `len + OFFSETS` bytes, filled
/// with a guard pattern so that bytes outside the placed slice differ from it.
struct Placer {
    storage: Vec<u8>,
    base: usize,
}

impl Placer {
    fn new(len: usize) -> Self {
        let storage = vec![0u8; len + 2 * OFFSETS];
        let base = storage.as_ptr().align_offset(OFFSETS);
        assert!(base < OFFSETS, "cannot align the test buffer");
        Placer { storage, base }
    }

    /// Copies `data` to the address `offset` bytes past a 64-byte boundary.
    fn place(&mut self, data: &[u8], offset: usize) -> &[u8] {
        self.storage.fill(0xa5);
        let start = self.base + offset;
        self.storage[start..start + data.len()].copy_from_slice(data);
        let placed = &self.storage[start..start + data.len()];
        assert_eq!(placed.as_ptr() as usize % OFFSETS, offset);
        placed
    }
}

/// Runs every path on `msg`, `nonce` and `tag` (each wherever the caller
/// placed them) and checks each result against `expected`.
fn check_paths<const N: usize>(msg: &[u8], nonce: &[u8], tag: &[u8], expected: &[u8; N], what: &str)
where
    TagLen<N>: UmacTagLen,
{
    let mut mac = Umac::<N>::new(KEY);
    assert_eq!(&mac.mac(nonce, msg).unwrap(), expected, "one-shot, {what}");
    mac.verify(nonce, msg, tag).unwrap_or_else(|e| panic!("verify, {what}: {e}"));

    // Streaming: a first piece that ends mid-block, then 13-byte pieces, so
    // that the slices handed to NH start at every residue mod 32 as well.
    let first = (msg.len() / 3).min(45);
    mac.update(&msg[..first]);
    for piece in msg[first..].chunks(13) {
        mac.update(piece);
    }
    assert_eq!(&mac.finalize_reset(nonce).unwrap(), expected, "streamed, {what}");
    mac.update(msg);
    mac.verify_reset(nonce, tag).unwrap_or_else(|e| panic!("verify_reset, {what}: {e}"));

    // The run-time path used by the CLI and the bindings.
    let alg = Algorithm::ALL.iter().find(|a| a.info().tag_len == N).expect("algorithm");
    let mut dynamic = alg.new_mac(KEY).unwrap();
    dynamic.update(msg);
    let mut out = [0u8; N];
    dynamic.finalize_reset_into(nonce, &mut out).unwrap();
    assert_eq!(&out, expected, "DynMac, {what}");
    dynamic.update(msg);
    dynamic.verify_reset(nonce, tag).unwrap_or_else(|e| panic!("DynMac verify_reset, {what}: {e}"));
}

/// The RFC 4418 rows short enough to repeat 64 times per tag length, at
/// every offset, for the tag length whose column is `column`.
fn rfc_rows_at_every_offset<const N: usize>(column: usize) -> usize
where
    TagLen<N>: UmacTagLen,
{
    let (key, nonce, rows) = common::rfc4418_vectors();
    assert_eq!(key, KEY);
    let rows: Vec<_> = rows.into_iter().filter(|r| r.message.len() <= 1 << 15).collect();
    let longest = rows.iter().map(|r| r.message.len()).max().unwrap();
    let (mut msg_buf, mut nonce_buf, mut tag_buf) = (Placer::new(longest), Placer::new(16), Placer::new(16));
    let mut checked = 0;
    for row in &rows {
        let expected: [u8; N] = row.tags[column].as_slice().try_into().unwrap();
        for offset in 0..OFFSETS {
            // Nonce and tag at offsets that differ from the message's.
            let nonce = nonce_buf.place(&nonce, (offset * 5 + 1) % OFFSETS);
            let tag = tag_buf.place(&expected, (offset * 3 + 7) % OFFSETS);
            let msg = msg_buf.place(&row.message, offset);
            let what = format!("UMAC-{} RFC row of {} bytes at offset {offset}", N * 8, row.message.len());
            check_paths::<N>(msg, nonce, tag, &expected, &what);
            checked += 1;
        }
    }
    checked
}

#[test]
fn rfc_vectors_at_every_offset() {
    // Six rows (all but the 1 MiB and 32 MiB ones) x 64 offsets.
    assert_eq!(rfc_rows_at_every_offset::<4>(0), 6 * OFFSETS);
    assert_eq!(rfc_rows_at_every_offset::<8>(1), 6 * OFFSETS);
    assert_eq!(rfc_rows_at_every_offset::<12>(2), 6 * OFFSETS);
    assert_eq!(rfc_rows_at_every_offset::<16>(3), 6 * OFFSETS);
}

/// Lengths on both sides of the NH block and the L1 chunk boundaries.
const LENGTHS: [usize; 20] = [1, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 95, 1023, 1024, 1025, 1056, 2049, 3000];

fn random_messages_at_every_offset<const N: usize>() -> usize
where
    TagLen<N>: UmacTagLen,
{
    let mut rng = StdRng::seed_from_u64(0x0a11_9e00 + N as u64);
    let mut msg_buf = Placer::new(3000);
    let nonce = [0x6e; 8];
    let mut checked = 0;
    for len in LENGTHS {
        let mut msg = vec![0u8; len];
        rng.fill(&mut msg[..]);
        let expected = Umac::<N>::new(KEY).mac(&nonce, &msg).unwrap();
        for offset in 0..OFFSETS {
            let placed = msg_buf.place(&msg, offset);
            let what = format!("UMAC-{} random {len} bytes at offset {offset}", N * 8);
            check_paths::<N>(placed, &nonce, &expected, &expected, &what);
            checked += 1;
        }
    }
    checked
}

#[test]
fn boundary_lengths_at_every_offset() {
    assert_eq!(random_messages_at_every_offset::<4>(), LENGTHS.len() * OFFSETS);
    assert_eq!(random_messages_at_every_offset::<8>(), LENGTHS.len() * OFFSETS);
    assert_eq!(random_messages_at_every_offset::<12>(), LENGTHS.len() * OFFSETS);
    assert_eq!(random_messages_at_every_offset::<16>(), LENGTHS.len() * OFFSETS);
}
