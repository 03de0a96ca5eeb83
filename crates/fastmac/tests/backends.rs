//! Every NH backend, through the whole of UMAC, against GNU Nettle: all four
//! tag lengths, every message length 0..3000 at several buffer alignments,
//! and large inputs, both one-shot and streamed.
//!
//! With `FASTMAC_BACKEND` set (as `make test` does once per backend the CPU
//! supports), only that backend runs, and the test first checks that the
//! variable really selected it; without it, every supported backend runs.
//!
//! Built under `--cfg fastmac_nettle` (set by the root Makefile's test runs)
//! on x86_64 only: libnettle is installed for the host, not for the cross
//! targets of `make test-cross` (there `backends_agree` compares NEON with
//! the portable backend instead).
#![cfg(all(fastmac_nettle, target_arch = "x86_64"))]

use crate::common;

use common::nettle::NettleUmac;
use fastmac::umac::{Backend, TagLen, Umac, UmacTagLen};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// The backends under test.
fn backends() -> Vec<Backend> {
    match common::forced_backend() {
        Some(forced) => {
            // The default constructor must honour the variable.
            assert_eq!(Umac::<8>::new(&[0; 16]).backend(), forced, "FASTMAC_BACKEND was not applied");
            vec![forced]
        }
        None => Backend::supported().collect(),
    }
}

/// Byte offsets of the message inside its buffer.
const ALIGNMENTS: [usize; 4] = [0, 1, 3, 13];

fn every_length<const N: usize>(backend: Backend, rng: &mut StdRng) -> usize
where
    TagLen<N>: UmacTagLen,
{
    let key: [u8; 16] = rng.random();
    let mut ours = Umac::<N>::with_backend(&key, backend).unwrap();
    let mut theirs = NettleUmac::new(N, &key);
    let mut buf = vec![0u8; 3000 + 64];
    rng.fill(&mut buf[..]);
    let mut count = 0;
    for len in 0..3000 {
        for offset in ALIGNMENTS {
            let msg = &buf[offset..offset + len];
            let nonce = (count as u64).to_be_bytes();
            let tag = ours.mac(&nonce, msg).unwrap();
            assert_eq!(tag[..], theirs.mac(&nonce, msg)[..], "{backend} UMAC-{} len {len} offset {offset}", 8 * N);
            count += 1;
        }
    }
    count
}

#[test]
fn every_backend_equals_nettle_at_every_length_below_3000() {
    let mut rng = StdRng::seed_from_u64(3000);
    for backend in backends() {
        let count = every_length::<4>(backend, &mut rng)
            + every_length::<8>(backend, &mut rng)
            + every_length::<12>(backend, &mut rng)
            + every_length::<16>(backend, &mut rng);
        assert_eq!(count, 4 * 3000 * ALIGNMENTS.len());
    }
}

fn large<const N: usize>(backend: Backend, msg: &[u8], rng: &mut StdRng)
where
    TagLen<N>: UmacTagLen,
{
    let key: [u8; 16] = rng.random();
    let nonce: [u8; 8] = rng.random();
    let mut ours = Umac::<N>::with_backend(&key, backend).unwrap();
    let expect = NettleUmac::new(N, &key).mac(&nonce, msg);
    assert_eq!(ours.mac(&nonce, msg).unwrap()[..], expect[..], "{backend} UMAC-{} len {}", 8 * N, msg.len());
    // Streamed in uneven pieces, each starting at a different alignment.
    let mut rest = msg;
    while !rest.is_empty() {
        let take = rng.random_range(1..=rest.len().min(200_000));
        ours.update(&rest[..take]);
        rest = &rest[take..];
    }
    assert_eq!(ours.finalize_reset(&nonce).unwrap()[..], expect[..], "{backend} UMAC-{} streamed", 8 * N);
}

#[test]
fn every_backend_equals_nettle_on_large_inputs() {
    let mut rng = StdRng::seed_from_u64(1 << 24);
    let mut buf = vec![0u8; (1 << 24) + 5000];
    rng.fill(&mut buf[..]);
    for backend in backends() {
        for (offset, len) in [(0, 65_536 + 7), (1, (1 << 20) + 1), (5, (1 << 24) + 4099)] {
            let msg = &buf[offset..offset + len];
            large::<4>(backend, msg, &mut rng);
            large::<8>(backend, msg, &mut rng);
            large::<12>(backend, msg, &mut rng);
            large::<16>(backend, msg, &mut rng);
        }
    }
}

#[test]
fn unsupported_or_unknown_backend_is_a_typed_error() {
    assert!(matches!(Backend::from_name("avx1024"), Err(fastmac::Error::Backend(_))));
    for backend in Backend::ALL {
        let made = Umac::<16>::with_backend(&[7; 16], backend);
        assert_eq!(made.is_ok(), backend.is_supported(), "{backend}");
        if let Err(err) = made {
            assert!(err.to_string().contains(backend.name()), "{err}");
        }
    }
}
