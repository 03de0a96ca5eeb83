//! Every SIMD NH backend this CPU runs gives the portable backend's tags
//! through the public API, on every message length 0..=3000 at several
//! alignments and all four tag lengths; and `FASTMAC_BACKEND`, when set, is
//! the backend new MACs really use, so that `make test`'s forced-NEON run
//! on aarch64 cannot fall back to portable unnoticed.
//!
//! Only where SIMD backends exist (x86_64, aarch64); on s390x every MAC is
//! portable and this file has nothing to compare.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use crate::common;

use fastmac::umac::{Backend, TagLen, Umac, Umac64, UmacTagLen};
use rand::{Rng, SeedableRng, rngs::StdRng};

const KEY: &[u8; 16] = b"0123456789abcdef";
const NONCE: &[u8] = b"\x00\x00\x00\x00\x00\x00\x00\x2a";
const OFFSETS: [usize; 4] = [0, 1, 4, 13];

fn simd_backends() -> Vec<Backend> {
    Backend::supported().filter(|b| *b != Backend::Portable).collect()
}

fn agree<const N: usize>(backends: &[Backend], data: &[u8]) -> usize
where
    TagLen<N>: UmacTagLen,
{
    let mut portable = Umac::<N>::with_backend(KEY, Backend::Portable).unwrap();
    let mut simd: Vec<Umac<N>> = backends.iter().map(|&b| Umac::<N>::with_backend(KEY, b).unwrap()).collect();
    let mut checked = 0;
    for len in 0..=3000 {
        for offset in OFFSETS {
            let msg = &data[offset..offset + len];
            let expected = portable.mac(NONCE, msg).unwrap();
            for (mac, backend) in simd.iter_mut().zip(backends) {
                assert_eq!(mac.backend(), *backend);
                assert_eq!(
                    mac.mac(NONCE, msg).unwrap(),
                    expected,
                    "UMAC-{} {backend} len {len} offset {offset}",
                    N * 8
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn simd_backends_give_portable_tags_for_every_length_to_3000() {
    let backends = simd_backends();
    assert!(!backends.is_empty(), "x86_64 has SSE2 and aarch64 has NEON");
    let mut data = vec![0u8; 3000 + 16];
    StdRng::seed_from_u64(0xba_c4e2d5).fill(&mut data[..]);
    let per_tag_len = 3001 * OFFSETS.len() * backends.len();
    assert_eq!(agree::<4>(&backends, &data), per_tag_len);
    assert_eq!(agree::<8>(&backends, &data), per_tag_len);
    assert_eq!(agree::<12>(&backends, &data), per_tag_len);
    assert_eq!(agree::<16>(&backends, &data), per_tag_len);
    println!("backends compared with portable: {backends:?}");
}

#[test]
fn forced_backend_is_the_one_used() {
    match common::forced_backend() {
        Some(forced) => assert_eq!(Umac64::new(&[1; 16]).backend(), forced),
        None => assert_eq!(Umac64::new(&[1; 16]).backend(), Backend::best()),
    }
}
