//! Differential tests against GNU Nettle's UMAC (libnettle), an independent
//! implementation: Nettle's own extended cases computed at test time,
//! thousands of random cases per tag length, messages past 2^24 bytes
//! (POLY128) and runs of consecutive nonces (the pad cache).
//!
//! Built under `--cfg fastmac_nettle` (set by the root Makefile's test runs)
//! on x86_64 only: libnettle is installed for the host, not for the cross
//! targets of `make test-cross`.
#![cfg(all(fastmac_nettle, target_arch = "x86_64"))]

use crate::common;

use common::nettle::NettleUmac;
use fastmac::umac::{TagLen, Umac, UmacTagLen};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Tags `msg` with fastmac and with Nettle and compares.
struct Pair<const N: usize>
where
    TagLen<N>: UmacTagLen,
{
    ours: Umac<N>,
    theirs: NettleUmac,
}

impl<const N: usize> Pair<N>
where
    TagLen<N>: UmacTagLen,
{
    fn new(key: &[u8; 16]) -> Self {
        Pair { ours: Umac::new(key), theirs: NettleUmac::new(N, key) }
    }

    fn check(&mut self, nonce: &[u8], msg: &[u8]) {
        let ours = self.ours.mac(nonce, msg).unwrap();
        let theirs = self.theirs.mac(nonce, msg);
        assert_eq!(ours[..], theirs[..], "UMAC-{} len {} nonce {nonce:02x?}", N * 8, msg.len());
    }
}

fn for_each_tag_len(f: &mut dyn FnMut(usize)) {
    for n in [4, 8, 12, 16] {
        f(n);
    }
}

/// Nettle's testsuite cases (umac-test.c): key "abcdefghijklmnop", the
/// message "defdefdefdefdef" repeated to each length, nonce lengths 1..16,
/// and lengths around the 1 KiB, 2 KiB and 16 MiB boundaries.
#[test]
fn nettle_extended_cases() {
    let key = b"abcdefghijklmnop";
    let nonces = b"bcdefghijklmnopq";
    let lengths: Vec<usize> = (0..=4)
        .chain(1020..=1027)
        .chain(2046..=2050)
        .chain(16_777_212..=16_777_217)
        .chain(16_778_239..=16_778_244)
        .collect();
    let pattern = b"defdefdefdefdef".repeat(16_778_244 / 15 + 1);
    let mut count = 0;
    macro_rules! run {
        ($n:literal) => {{
            let mut pair = Pair::<$n>::new(key);
            for &len in &lengths {
                pair.check(b"bcdefghi", &pattern[..len]);
                count += 1;
            }
            for nonce_len in 1..=16 {
                pair.check(&nonces[..nonce_len], &pattern[..100]);
                count += 1;
            }
        }};
    }
    run!(4);
    run!(8);
    run!(12);
    run!(16);
    println!("nettle extended cases: {count}");
    assert_eq!(count, 4 * (lengths.len() + 16));
}

#[test]
fn random_cases_against_nettle() {
    const CASES: usize = 2000;
    let mut rng = StdRng::seed_from_u64(0x4e45_5454_4c45);
    let mut buf = vec![0u8; 70_000];
    let mut count = 0;
    for_each_tag_len(&mut |n| {
        for _ in 0..CASES {
            let key: [u8; 16] = rng.random();
            let nonce_len = rng.random_range(1..=16);
            let nonce: Vec<u8> = (0..nonce_len).map(|_| rng.random()).collect();
            let len = rng.random_range(0..=buf.len());
            rng.fill(&mut buf[..len]);
            match n {
                4 => Pair::<4>::new(&key).check(&nonce, &buf[..len]),
                8 => Pair::<8>::new(&key).check(&nonce, &buf[..len]),
                12 => Pair::<12>::new(&key).check(&nonce, &buf[..len]),
                _ => Pair::<16>::new(&key).check(&nonce, &buf[..len]),
            }
            count += 1;
        }
    });
    println!("random cases against nettle: {count}");
    assert_eq!(count, 4 * CASES);
}

#[test]
fn messages_past_2_pow_24_against_nettle() {
    let mut rng = StdRng::seed_from_u64(24);
    let mut msg = vec![0u8; (1 << 24) + (3 << 20)];
    rng.fill(&mut msg[..]);
    for _ in 0..3 {
        let key: [u8; 16] = rng.random();
        let len = rng.random_range((1 << 24) + 1..=msg.len());
        let nonce: [u8; 8] = rng.random();
        Pair::<4>::new(&key).check(&nonce, &msg[..len]);
        Pair::<8>::new(&key).check(&nonce, &msg[..len]);
        Pair::<12>::new(&key).check(&nonce, &msg[..len]);
        Pair::<16>::new(&key).check(&nonce, &msg[..len]);
    }
}

#[test]
fn consecutive_nonces_against_nettle() {
    // Counter nonces share PDF blocks 4 (UMAC-32) or 2 (UMAC-64) at a time:
    // runs that start anywhere, cross byte carries, and use 1, 8 and 16-byte
    // nonces exercise the pad cache.
    let mut rng = StdRng::seed_from_u64(77);
    let key: [u8; 16] = rng.random();
    let mut p4 = Pair::<4>::new(&key);
    let mut p8 = Pair::<8>::new(&key);
    let mut p12 = Pair::<12>::new(&key);
    let mut p16 = Pair::<16>::new(&key);
    let starts = [0u64, 1, 2, 3, 0xfd, 0xfffe, rng.random::<u32>() as u64, u64::MAX - 300];
    for (run, &start) in starts.iter().enumerate() {
        for i in 0..300u64 {
            let counter = start.wrapping_add(i);
            let nonce8 = counter.to_be_bytes();
            let mut nonce16 = [0u8; 16];
            nonce16[8..].copy_from_slice(&nonce8);
            let nonce = match run % 3 {
                0 => &nonce8[..],
                1 => &nonce16[..],
                _ => &nonce8[7..],
            };
            let msg = vec![(i % 251) as u8; rng.random_range(0..1500)];
            p4.check(nonce, &msg);
            p8.check(nonce, &msg);
            p12.check(nonce, &msg);
            p16.check(nonce, &msg);
        }
    }
}
