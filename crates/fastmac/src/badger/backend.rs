//! Instruction-set dispatch for the tree hash, detected once per process:
//!
//! * AVX-512: the levels of a subtree with explicit intrinsics, 8 nodes of a
//!   level per instruction (two loads, two `vpermt2q` to split earlier and
//!   later nodes, `vpmuludq` for the 32x32->64 products), in place.
//! * AVX2 and baseline x86-64: [`super::tree::absorb_portable`] compiled for
//!   that instruction set, vectorised by the compiler.

#![allow(unsafe_code)]

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
use super::tree::absorb_with;
use super::tree::{NODE_SLOTS, absorb_portable};

type AbsorbFn = fn(&[u64], &mut [u64; NODE_SLOTS], u64, &[u8]);

/// Adds whole blocks to one tree; see [`absorb_portable`].
#[inline]
pub(crate) fn absorb(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
    chosen()(level_key, nodes, count, blocks)
}

// Run-time detection without std, cached by `cpufeatures` in a static.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
cpufeatures::new!(has_avx2, "avx2");
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
cpufeatures::new!(has_avx512, "avx512f", "avx512bw", "avx512vl", "avx2");

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
fn chosen() -> AbsorbFn {
    if has_avx512::get() {
        x86::avx512_checked
    } else if has_avx2::get() {
        x86::avx2_checked
    } else {
        absorb_portable
    }
}

/// Elsewhere, and under Miri (which checks the portable code), the baseline.
#[cfg(any(not(all(target_arch = "x86_64", target_feature = "sse2")), miri))]
fn chosen() -> AbsorbFn {
    absorb_portable
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
mod x86 {
    use core::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_mul_epu32, _mm512_permutex2var_epi64, _mm512_set1_epi64,
        _mm512_setr_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
    };

    use super::super::enh::{self, MAX_LEVEL_ONE};
    use super::{NODE_SLOTS, absorb_portable, absorb_with};

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn avx512(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        absorb_with(level_key, nodes, count, blocks, |keys, blocks, height| subtree_root_avx512(keys, blocks, height))
    }

    /// [`enh::subtree_root`] with the wide levels in AVX-512.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn subtree_root_avx512(level_key: &[u64], blocks: &[u8], height: u32) -> u64 {
        match blocks.len() / 16 {
            ..16 => enh::subtree_root(level_key, blocks, height),
            // Scratch sized to the subtree, so that 1 KiB does not clear 8 KiB.
            16..=64 => levels_avx512::<64>(level_key, blocks, height),
            65..=256 => levels_avx512::<256>(level_key, blocks, height),
            _ => levels_avx512::<MAX_LEVEL_ONE>(level_key, blocks, height),
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn levels_avx512<const PAIRS: usize>(level_key: &[u64], blocks: &[u8], height: u32) -> u64 {
        let pairs = blocks.len() / 16;
        let mut nodes = [0u64; PAIRS];
        // SAFETY: `blocks` holds 16 * `pairs` bytes and `nodes` at least
        // `pairs` (<= PAIRS) entries; `pairs` is a multiple of 8.
        unsafe { level_avx512(level_key[0], blocks.as_ptr(), nodes.as_mut_ptr(), pairs) };
        let mut len = pairs;
        let mut level = 1;
        while len >= 16 {
            len /= 2;
            // SAFETY: reads 2 * `len` nodes and writes `len` nodes of
            // `nodes`, in place: the write of node s (for s in a group of 8)
            // happens after the reads of nodes 2s and 2s + 1 of that group,
            // and no later group reads below 2 * (s + 8) > s.
            unsafe { level_avx512(level_key[level], nodes.as_ptr().cast(), nodes.as_mut_ptr(), len) };
            level += 1;
        }
        enh::upper_levels(&level_key[level..height as usize], &mut nodes[..len])
    }

    /// One level: `dst[s] = ENH(key, src[2s + 1], src[2s])` for s < `len`
    /// (a multiple of 8), with `src` read as little-endian 64-bit words.
    ///
    /// # Safety
    /// `src` must be valid for reading `16 * len` bytes, `dst` for writing
    /// `len` words, and any overlap must be `dst == src` (in place).
    #[target_feature(enable = "avx512f")]
    unsafe fn level_avx512(key: u64, src: *const u8, dst: *mut u64, len: usize) {
        let key_low = _mm512_set1_epi64(key as i64);
        let key_high = _mm512_set1_epi64((key >> 32) as i64);
        let earlier_index = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
        let later_index = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
        for group in 0..len / 8 {
            // SAFETY: group < len / 8, so bytes 128 * group .. + 128 are in
            // `src` and words 8 * group .. + 8 in `dst` (caller's contract).
            let (first, second): (__m512i, __m512i) = unsafe {
                (_mm512_loadu_si512(src.add(128 * group).cast()), _mm512_loadu_si512(src.add(128 * group + 64).cast()))
            };
            let earlier = _mm512_permutex2var_epi64(first, earlier_index, second);
            let later = _mm512_permutex2var_epi64(first, later_index, second);
            // vpmuludq reads the low 32 bits of each lane, so 64-bit adds
            // give the 32-bit sums L(a) +32 L(k) and U(a) +32 U(k).
            let low = _mm512_add_epi64(earlier, key_low);
            let high = _mm512_add_epi64(_mm512_srli_epi64::<32>(earlier), key_high);
            let node = _mm512_add_epi64(_mm512_mul_epu32(low, high), later);
            // SAFETY: see above.
            unsafe { _mm512_storeu_si512(dst.add(8 * group).cast(), node) };
        }
    }

    #[target_feature(enable = "avx2")]
    fn avx2(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        absorb_portable(level_key, nodes, count, blocks)
    }

    pub(super) fn avx512_checked(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        // SAFETY: `chosen` returns this only after run-time detection of
        // AVX-512 F/BW/VL and AVX2.
        unsafe { avx512(level_key, nodes, count, blocks) }
    }

    pub(super) fn avx2_checked(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        // SAFETY: `chosen` returns this only after run-time detection of AVX2.
        unsafe { avx2(level_key, nodes, count, blocks) }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Only a CPU with AVX-512 runs it: ignored by a plain `cargo test`,
        /// so that elsewhere it shows as a skip, not a pass; `make test` runs
        /// it where the CPU has AVX-512 (scripts/test-backends.sh), as does
        /// `cargo test -- --ignored avx512`.
        #[test]
        #[ignore = "needs AVX-512 F (make test runs it where the CPU has it: test-backends/avx512-only)"]
        fn avx512_subtrees_equal_the_portable_form() {
            assert!(std::is_x86_feature_detected!("avx512f"), "this CPU lacks AVX-512 F: run it where it is");
            let keys: Vec<u64> = (0..11u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xFFFF_FFFF).collect();
            let blocks: Vec<u8> = (0..16384u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
            for height in 1..=11 {
                let bytes = &blocks[..8 << height];
                // SAFETY: AVX-512 F was detected above.
                let fast = unsafe { subtree_root_avx512(&keys, bytes, height) };
                assert_eq!(fast, enh::subtree_root(&keys, bytes, height), "height {height}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every backend this CPU can run gives the same nodes as the baseline
    /// build, from any starting count and for any number of blocks, so the
    /// reference-form tests (which run the chosen backend only) cover all.
    #[test]
    fn every_available_backend_equals_the_baseline() {
        // No SIMD backend elsewhere.
        #[cfg_attr(not(all(target_arch = "x86_64", target_feature = "sse2")), allow(unused_mut))]
        let mut backends: Vec<(&str, AbsorbFn)> = Vec::new();
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
        {
            if std::is_x86_feature_detected!("avx2") {
                backends.push(("avx2", x86::avx2_checked));
            }
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx2")
            {
                backends.push(("avx512", x86::avx512_checked));
            }
        }
        let keys: Vec<u64> = (1..=58u64).map(|k| k.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ (k << 40)).collect();
        let data: Vec<u8> = (0..200_000u32).map(|i| (i.wrapping_mul(2_246_822_519) >> 11) as u8).collect();
        for (start, blocks) in [
            (0u64, 8000usize),
            (0, 1),
            (1, 511),
            (3, 1500),
            (512, 4096),
            (1000, 17),
            (4095, 8193),
            (0, 20_000),
            (2048, 6144),
        ] {
            let bytes = &data[..8 * blocks];
            let mut expect = [0u64; NODE_SLOTS];
            absorb_portable(&keys, &mut expect, start, bytes);
            for (name, absorb) in &backends {
                let mut nodes = [0u64; NODE_SLOTS];
                absorb(&keys, &mut nodes, start, bytes);
                let end = start + blocks as u64;
                for height in 0..64 - end.leading_zeros() as usize {
                    if end >> height & 1 == 1 {
                        assert_eq!(
                            nodes[height], expect[height],
                            "{name}: start {start}, {blocks} blocks, height {height}"
                        );
                    }
                }
            }
        }
    }
}
