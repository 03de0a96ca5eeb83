//! The reference UMAC (tests/common/umac_ref.rs, RFC 4418's pseudo-code
//! written out) checked against the vector file and GNU Nettle, then used
//! as the oracle of property tests of the library: random keys, nonces of
//! every length, messages across the 32-byte NH block and 1024-byte L1
//! chunk boundaries, all four tag lengths, one-shot and streamed in random
//! pieces.

use crate::common;

use common::umac_ref;
use fastmac::umac::{TagLen, Umac, UmacTagLen};
use proptest::prelude::*;

/// The reference reproduces every row of tests/vectors/rfc4418.txt (its
/// 'a' * 2^25 row goes through POLY128), at all four tag lengths.
#[test]
fn reference_reproduces_the_vector_file() {
    let (key, nonce, rows) = common::rfc4418_vectors();
    let key: [u8; 16] = key.try_into().expect("16-byte key");
    for row in &rows {
        for (column, tag_len) in [4, 8, 12, 16].into_iter().enumerate() {
            let tag = umac_ref::umac(&key, &row.message, &nonce, tag_len);
            assert_eq!(tag, row.tags[column], "UMAC-{} len {}", 8 * tag_len, row.message.len());
        }
    }
    assert_eq!(rows.len(), 8);
}

/// The double-and-add product the reference uses for POLY128 against `%`
/// where u128 suffices, and POLY's marker branch against its definition.
#[test]
fn reference_arithmetic() {
    let p64 = umac_ref::prime(64);
    for (a, b) in [(p64 - 1, p64 - 1), (0x01ff_ffff_01ff_ffff, u128::from(u64::MAX)), (3, 5), (0, 7)] {
        assert_eq!(umac_ref::mul_mod(a, b, p64), a * b % p64);
    }
    let p128 = umac_ref::prime(128);
    assert_eq!(umac_ref::add_mod(p128 - 1, p128 - 1, p128), p128 - 2);
    assert_eq!(umac_ref::mul_mod(p128 - 1, p128 - 1, p128), 1, "(-1)^2 = 1");
    // POLY64 of one word in the top range: y = k + marker, then k*y + m - offset.
    let (k, m) = (0x0123_4567_0089_abcdu128, u128::from(u64::MAX));
    let y = (k + p64 - 1) % p64;
    assert_eq!(umac_ref::poly(64, (1 << 64) - (1 << 32), k, &u64::MAX.to_be_bytes()), (k * y + m - 59) % p64);
}

/// The reference against libnettle at random keys, nonces and lengths.
#[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
#[test]
fn reference_equals_nettle() {
    use rand::{Rng, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(0x4418);
    for case in 0..120 {
        let key: [u8; 16] = rng.random();
        let nonce: Vec<u8> = (0..rng.random_range(1..=16)).map(|_| rng.random()).collect();
        let len = match case % 3 {
            0 => rng.random_range(0..64),
            1 => rng.random_range(1000..1100),
            _ => rng.random_range(2000..5000),
        };
        let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        for tag_len in [4, 8, 12, 16] {
            let expect = common::nettle::NettleUmac::new(tag_len, &key).mac(&nonce, &msg);
            assert_eq!(umac_ref::umac(&key, &msg, &nonce, tag_len), expect, "UMAC-{} len {len}", 8 * tag_len);
        }
    }
}

/// Message lengths near the boundaries where UHASH changes shape: the empty
/// message, partial and whole NH blocks, one chunk (no L2-HASH) against
/// one chunk and a byte, two chunks whose second is two NH blocks or
/// longer (where POLY64 changes form), and several chunks with a partial
/// last one.
fn message_len() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..=70, 990usize..=1100, 2040usize..=2100, 3000usize..=4200]
}

fn message() -> impl Strategy<Value = Vec<u8>> {
    message_len().prop_flat_map(|len| proptest::collection::vec(any::<u8>(), len))
}

/// The library's tag one-shot and streamed in pieces (cut at the given
/// offsets, modulo what is left), for one tag length.
fn library_tags<const N: usize>(key: &[u8; 16], nonce: &[u8], msg: &[u8], cuts: &[usize]) -> (Vec<u8>, Vec<u8>)
where
    TagLen<N>: UmacTagLen,
{
    let mut mac = Umac::<N>::new(key);
    let one_shot = mac.mac(nonce, msg).unwrap().to_vec();
    let mut rest = msg;
    for &cut in cuts {
        let (head, tail) = rest.split_at(cut % (rest.len() + 1));
        mac.update(head);
        rest = tail;
    }
    mac.update(rest);
    (one_shot, mac.finalize_reset(nonce).unwrap().to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every tag length, one-shot and streamed, equals the reference.
    #[test]
    fn library_equals_reference(
        key in any::<[u8; 16]>(),
        nonce in proptest::collection::vec(any::<u8>(), 1..=16),
        msg in message(),
        cuts in proptest::collection::vec(0usize..1500, 0..6),
    ) {
        for (tag_len, (one_shot, streamed)) in [
            (4, library_tags::<4>(&key, &nonce, &msg, &cuts)),
            (8, library_tags::<8>(&key, &nonce, &msg, &cuts)),
            (12, library_tags::<12>(&key, &nonce, &msg, &cuts)),
            (16, library_tags::<16>(&key, &nonce, &msg, &cuts)),
        ] {
            let expect = umac_ref::umac(&key, &msg, &nonce, tag_len);
            prop_assert_eq!(&one_shot, &expect, "UMAC-{} one-shot, len {}", 8 * tag_len, msg.len());
            prop_assert_eq!(&streamed, &expect, "UMAC-{} streamed, len {}", 8 * tag_len, msg.len());
        }
    }

    /// Counter nonces (the pad cache's fast path, RFC 4418 section 3.3's
    /// sliced pads for UMAC-32 and -64) equal the reference's PDF.
    #[test]
    fn counter_nonces_equal_reference(
        key in any::<[u8; 16]>(),
        start in any::<u64>(),
        msg in proptest::collection::vec(any::<u8>(), 0..100),
    ) {
        let mut mac32 = Umac::<4>::new(&key);
        let mut mac64 = Umac::<8>::new(&key);
        for n in start..start.saturating_add(40) {
            let nonce = n.to_be_bytes();
            prop_assert_eq!(mac32.mac(&nonce, &msg).unwrap().to_vec(), umac_ref::umac(&key, &msg, &nonce, 4));
            prop_assert_eq!(mac64.mac(&nonce, &msg).unwrap().to_vec(), umac_ref::umac(&key, &msg, &nonce, 8));
        }
    }
}
