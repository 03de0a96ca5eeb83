//! Every backend the CPU supports equals the portable NH (the
//! specification) for every iteration count, every start block, every
//! length in a chunk, and unaligned data.

use super::block::{BLOCK, CHUNK_BLOCKS};
use super::{ChunkRun, KEY_WORDS, NhKey};
use crate::umac::backend::Backend;
use crate::umac::l2::Outputs;

/// A deterministic pseudo-random byte stream (xorshift64*), so that a
/// failure reproduces.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed | 1;
    (0..len)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

fn key_words(seed: u64) -> [u32; KEY_WORDS] {
    let raw = bytes(seed, 4 * KEY_WORDS);
    core::array::from_fn(|i| u32::from_be_bytes(raw[4 * i..4 * i + 4].try_into().unwrap()))
}

fn run(backend: Backend, words: &[u32; KEY_WORDS], first_block: usize, data: &[u8], iters: usize) -> Vec<u64> {
    hash_with(&NhKey::new(words, backend, iters), first_block, data, iters)
}

fn hash_with(key: &NhKey, first_block: usize, data: &[u8], iters: usize) -> Vec<u64> {
    let mut acc: Vec<u64> = (0..iters as u64).map(|t| t.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
    key.hash(first_block, data, &mut acc);
    acc
}

fn supported_simd() -> Vec<Backend> {
    Backend::supported().filter(|b| *b != Backend::Portable).collect()
}

#[test]
fn simd_backends_equal_portable_at_every_length_and_start() {
    let backends = supported_simd();
    let data = bytes(7, 1024 + 64);
    for (seed, words) in [(1, key_words(1)), (2, [u32::MAX; KEY_WORDS]), (3, key_words(3))] {
        for iters in 1..=4 {
            for first_block in 0..CHUNK_BLOCKS {
                let room = (CHUNK_BLOCKS - first_block) * 32;
                for len in 0..=room {
                    for offset in [0, 1, 3] {
                        let msg = if seed == 2 { &[0xffu8; 1024][..len] } else { &data[offset..offset + len] };
                        let expect = run(Backend::Portable, &words, first_block, msg, iters);
                        for &b in &backends {
                            assert_eq!(
                                run(b, &words, first_block, msg, iters),
                                expect,
                                "{b} T={iters} start block {first_block} len {len} offset {offset} key {seed}"
                            );
                        }
                        if seed == 2 {
                            break; // all-ones data does not depend on the offset
                        }
                    }
                }
            }
        }
    }
}

/// The AVX2 kernels read a partial last block from the 32 bytes that end
/// their input, so no key sends them (or AVX-512, which may hand four
/// iterations to them) an input of 1 to 31 bytes.
#[test]
fn no_partial_block_alone_reaches_the_wide_kernels() {
    for backend in Backend::supported() {
        for iters in 1..=4 {
            let kernels = NhKey::new(&key_words(4), backend, iters).kernels;
            for len in 1..=BLOCK {
                let chosen = [kernels.kernel::<1>(len), kernels.kernel::<2>(len), kernels.kernel::<4>(len)];
                assert!(
                    chosen.iter().all(|b| !matches!(b, Backend::Avx2 | Backend::Avx512)),
                    "{backend}, key for T={iters}: {len} bytes go to {chosen:?}"
                );
            }
        }
    }
}

#[test]
fn portable_matches_rfc_formula_on_one_block() {
    // NH over one block (RFC 4418 section 5.2.2, t = 8): the sum of
    // (m[j] + k[j]) * (m[j + 4] + k[j + 4]) for j in 0..4, mod 2^64.
    let words = key_words(9);
    let block = bytes(10, 32);
    let m: Vec<u32> = block.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    for iters in 1..=4 {
        let got = run(Backend::Portable, &words, 0, &block, iters);
        for t in 0..iters {
            let k = &words[4 * t..];
            let mut y = (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15); // as `run` seeds it
            for j in 0..4 {
                y = y.wrapping_add(u64::from(m[j].wrapping_add(k[j])) * u64::from(m[j + 4].wrapping_add(k[j + 4])));
            }
            assert_eq!(got[t], y, "iteration {t}");
        }
    }
}

/// Both T = 4 layouts of the AVX-512 backend (its own, and AVX2's, which it
/// runs on cores that split 512-bit operations) equal portable NH,
/// whichever of the two this CPU is given. Only a CPU with AVX-512 runs it:
/// ignored by a plain `cargo test`, so that elsewhere it shows as a skip, not
/// a pass; `make test` runs it where the CPU has AVX-512
/// (scripts/test-backends.sh), as does `cargo test -- --ignored avx512`.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[test]
#[ignore = "needs AVX-512 F/BW/VL (make test runs it where the CPU has them: test-backends/avx512-only)"]
#[allow(unsafe_code)] // direct calls of the two layouts
fn both_avx512_layouts_for_four_iterations_equal_portable() {
    assert!(Backend::Avx512.is_supported(), "this CPU lacks AVX-512 F/BW/VL: run it where they are");
    let words = key_words(11);
    let data = bytes(12, 1024 + 3);
    let key = NhKey::new(&words, Backend::Avx512, 4);
    let zero_seeded = |acc: Vec<u64>| -> [u64; 4] {
        core::array::from_fn(|t| acc[t].wrapping_sub((t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
    };
    for first_block in [0, 1, 17, CHUNK_BLOCKS - 1] {
        for len in 0..=(CHUNK_BLOCKS - first_block) * 32 {
            for offset in [0, 3] {
                let msg = &data[offset..offset + len];
                let expect = zero_seeded(run(Backend::Portable, &words, first_block, msg, 4));
                let (mut wide, mut halves) = ([0u64; 4], [0u64; 4]);
                // SAFETY: AVX-512 F/BW/VL, which imply AVX2, were detected
                // above; the AVX2 kernel is given no partial block alone.
                unsafe {
                    super::avx512::iteration_parallel::<4, 0>(&key, first_block, msg, &mut wide);
                    if len == 0 || len >= BLOCK {
                        super::avx2::iteration_parallel::<4, 0>(&key, first_block, msg, &mut halves);
                    }
                }
                assert_eq!(wide, expect, "512-bit layout, start block {first_block} len {len} offset {offset}");
                if len == 0 || len >= BLOCK {
                    assert_eq!(halves, expect, "256-bit layout, start block {first_block} len {len} offset {offset}");
                }
            }
        }
    }
}

/// Whole chunks through a [`ChunkRun`] (in one call where the backend takes
/// a run that way: runs of two chunks and more under AVX2, each chunk's
/// sums handed on after the next chunk's NH; of 32 and more under AVX-512,
/// in batches) equal portable NH chunk by chunk, in order, for every
/// iteration count: runs just below, at and past both thresholds, with and
/// without chunks left over after the last whole batch.
#[test]
fn chunk_runs_equal_portable_chunk_by_chunk() {
    let words = key_words(13);
    let data = bytes(14, 64 * 1024);
    let (chunks, _) = data.as_chunks::<1024>();
    let init = 0x0123_4567_89ab_cdef;
    for count in [0, 1, 2, 3, 31, 32, 33, 34, 35, 41, 64] {
        let run = &chunks[..count];
        for backend in Backend::supported() {
            check_runs::<1>(&NhKey::new(&words, backend, 1), &words, run, init);
            check_runs::<2>(&NhKey::new(&words, backend, 2), &words, run, init);
            check_runs::<3>(&NhKey::new(&words, backend, 3), &words, run, init);
            check_runs::<4>(&NhKey::new(&words, backend, 4), &words, run, init);
        }
    }
}

fn check_runs<const T: usize>(key: &NhKey, words: &[u32; KEY_WORDS], run: &[[u8; 1024]], init: u64) {
    let mut got = Vec::new();
    ChunkRun::new(key, run, init).each(|sums| got.push(sums));
    let expect: Vec<[u64; T]> = run
        .iter()
        .map(|chunk| {
            let key = NhKey::new(words, Backend::Portable, T);
            key.sums::<T, 0>(0, chunk, [init; T])
        })
        .collect();
    assert_eq!(got, expect, "{} T={T} {} chunks", key.backend(), run.len());
}

/// A key is stored in one layout, the one its own iteration count's
/// kernels read; it serves that count, and every other count it says it
/// serves hashes equal to portable NH (a kernel reading the other layout
/// would not), at lengths that reach every kernel: SSE2's short inputs,
/// whole pairs and groups of blocks, a leftover block, partial blocks.
#[test]
fn a_key_serves_the_counts_whose_kernels_read_its_layout() {
    let words = key_words(15);
    let data = bytes(16, 1024);
    for backend in Backend::supported() {
        for laid_out_for in 1..=4 {
            let key = NhKey::new(&words, backend, laid_out_for);
            assert!(key.serves(laid_out_for), "{backend}: a key laid out for T={laid_out_for} serves it");
            for iters in (1..=4).filter(|&iters| key.serves(iters)) {
                for first_block in [0, 5, CHUNK_BLOCKS - 1] {
                    let room = (CHUNK_BLOCKS - first_block) * 32;
                    for len in [0, 1, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 200, 512, 1000, 1024] {
                        let msg = &data[..len.min(room)];
                        assert_eq!(
                            hash_with(&key, first_block, msg, iters),
                            run(Backend::Portable, &words, first_block, msg, iters),
                            "{backend}: key for T={laid_out_for}, hashed with T={iters}, block {first_block}, len {}",
                            msg.len()
                        );
                    }
                }
            }
        }
    }
}
