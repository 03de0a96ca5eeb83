//! Streaming equals one-shot, for every split point of messages up to 3 KiB
//! and for random chunkings of large messages.

use fastmac::umac::{TagLen, Umac, Umac32, Umac64, Umac96, Umac128, UmacTagLen};
use proptest::prelude::*;
use rand::{Rng, SeedableRng, rngs::StdRng};

const NONCE: &[u8] = b"\x00\x00\x00\x00\x00\x00\x01\x02";

fn every_split<const N: usize>(msg: &[u8])
where
    TagLen<N>: UmacTagLen,
{
    let mut mac = Umac::<N>::new(&[0x42; 16]);
    let whole = mac.mac(NONCE, msg).unwrap();
    for split in 0..=msg.len() {
        mac.update(&msg[..split]);
        mac.update(&msg[split..]);
        assert_eq!(mac.finalize_reset(NONCE).unwrap(), whole, "len {} split {split}", msg.len());
    }
}

#[test]
fn every_split_point_up_to_3k() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut msg = vec![0u8; 3072];
    rng.fill(&mut msg[..]);
    // Every split of the full 3 KiB, and of lengths around the 32-byte NH
    // block and 1024-byte chunk boundaries.
    let lengths = [0, 1, 31, 32, 33, 63, 64, 1023, 1024, 1025, 2047, 2048, 2049, 3071, 3072];
    for len in lengths {
        every_split::<4>(&msg[..len]);
        every_split::<8>(&msg[..len]);
        every_split::<12>(&msg[..len]);
        every_split::<16>(&msg[..len]);
    }
}

#[test]
fn byte_at_a_time_for_every_length_up_to_3k() {
    let mut rng = StdRng::seed_from_u64(2);
    let mut msg = vec![0u8; 3072];
    rng.fill(&mut msg[..]);
    let mut mac = Umac128::new(&[9; 16]);
    for len in 0..=msg.len() {
        let whole = mac.mac(NONCE, &msg[..len]).unwrap();
        let (a, b) = msg[..len].split_at(len / 3);
        mac.update(a);
        for byte in b {
            mac.update(std::slice::from_ref(byte));
        }
        assert_eq!(mac.finalize_reset(NONCE).unwrap(), whole, "len {len}");
    }
}

fn chunked<const N: usize>(msg: &[u8], cuts: &[usize]) -> ([u8; N], [u8; N])
where
    TagLen<N>: UmacTagLen,
{
    let mut mac = Umac::<N>::new(&[0x17; 16]);
    let whole = mac.mac(NONCE, msg).unwrap();
    let mut rest = msg;
    for &cut in cuts {
        let (head, tail) = rest.split_at(cut % (rest.len() + 1));
        mac.update(head);
        rest = tail;
    }
    mac.update(rest);
    (mac.finalize_reset(NONCE).unwrap(), whole)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_chunkings_of_large_messages(
        len in 0usize..(3 << 20),
        seed in any::<u64>(),
        cuts in prop::collection::vec(0usize..200_000, 0..40),
    ) {
        let mut msg = vec![0u8; len];
        StdRng::seed_from_u64(seed).fill(&mut msg[..]);
        let (a, b) = chunked::<4>(&msg, &cuts);
        prop_assert_eq!(a, b);
        let (a, b) = chunked::<8>(&msg, &cuts);
        prop_assert_eq!(a, b);
        let (a, b) = chunked::<12>(&msg, &cuts);
        prop_assert_eq!(a, b);
        let (a, b) = chunked::<16>(&msg, &cuts);
        prop_assert_eq!(a, b);
    }
}

#[test]
fn chunking_across_the_poly128_switch() {
    // L2-HASH moves from POLY64 to POLY128 past 2^24 bytes of message.
    let mut rng = StdRng::seed_from_u64(3);
    let mut msg = vec![0u8; (1 << 24) + 5000];
    rng.fill(&mut msg[..]);
    for len in [(1 << 24) - 1, 1 << 24, (1 << 24) + 1, (1 << 24) + 1024, (1 << 24) + 2049] {
        let cuts = [rng.random_range(0..1 << 24), 1, 4093];
        let (a, b) = chunked::<16>(&msg[..len], &cuts);
        assert_eq!(a, b, "len {len}");
        let (a, b) = chunked::<4>(&msg[..len], &cuts);
        assert_eq!(a, b, "len {len}");
    }
    let _ = (Umac32::new(&[0; 16]), Umac64::new(&[0; 16]), Umac96::new(&[0; 16]));
}
