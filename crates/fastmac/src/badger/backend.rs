//! Badger's tree kernels, one set per instruction set; which one a key
//! uses is chosen with NH's backend, in `umac/nh/platform.rs`
//! (`Backend::badger_tree_kernels`), when the key is made. Every set runs
//! [`super::tree::absorb_with`] (a streamed message's whole blocks) and
//! [`super::tree::hash_with`] (a whole message), compiled for its
//! instruction set, with its own form of one tree level ([`Level`]):
//!
//! * AVX-512: 8 nodes of a level per instruction (two loads, two
//!   `vpermt2q` to split earlier and later nodes, `vpmuludq` for the
//!   32x32->64 products).
//! * AVX2: 4 nodes per instruction (two loads, `vpunpck{l,h}qdq` to split
//!   earlier and later nodes, `vpmuludq`, one `vpermq` to put the four nodes
//!   back in order).
//! * Baseline x86-64 and other targets: [`super::enh::Portable`],
//!   vectorised by the compiler where it can.
//!
//! No level of a run ends in scalar code but for the top few: AVX2
//! computes level 1's last vector from the last 4 pairs of the message and
//! stores the pairs it lacked where the next whole vector would go
//! (AVX-512's last vector overlaps the one before, computing some nodes
//! twice, alike), and the higher levels, in the scratch of
//! [`super::enh::with_scratch`], round up to whole vectors; so a run of any
//! length costs what its neighbours cost (`docs/performance.md`, "Badger
//! at every length"). Levels of fewer than 8 nodes above level 1 are scalar: at the top
//! of a tree a vector's latency (its shuffles, and a load that waits for
//! the level below) costs more than it saves. A level 1 of fewer than 16
//! nodes (a message under 256 bytes) takes 128-bit vectors, whose nodes
//! those scalar levels load straight from the stores.

#![allow(unsafe_code)]

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
use super::enh::Level;
use super::tree::{NODE_SLOTS, absorb_portable, hash_portable};
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
use super::tree::{absorb_with, hash_with};
use crate::umac::backend::Backend;

/// [`absorb_portable`]'s signature.
type AbsorbFn = fn(&[u64], &mut [u64; NODE_SLOTS], u64, &[u8], &mut [u64]);
/// [`hash_portable`]'s signature.
type HashFn = fn(&[u64], &[u8], Option<u64>, &mut [u64]) -> u64;

/// One instruction set's forms of the tree hash.
pub(crate) struct TreeKernels {
    /// The backend these kernels are named after.
    backend: Backend,
    /// See [`absorb_portable`].
    absorb: AbsorbFn,
    /// See [`hash_portable`].
    hash: HashFn,
}

/// The baseline build's kernels, for every CPU.
pub(crate) const PORTABLE: TreeKernels =
    TreeKernels { backend: Backend::Portable, absorb: absorb_portable, hash: hash_portable };
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
pub(crate) use x86::{AVX2, AVX512};

impl TreeKernels {
    /// The backend these kernels are named after: [`Backend::Portable`],
    /// [`Backend::Avx2`] or [`Backend::Avx512`].
    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    /// Adds whole blocks to one tree; see [`absorb_portable`].
    #[inline]
    pub(crate) fn absorb(
        &self,
        level_key: &[u64],
        nodes: &mut [u64; NODE_SLOTS],
        count: u64,
        blocks: &[u8],
        scratch: &mut [u64],
    ) {
        (self.absorb)(level_key, nodes, count, blocks, scratch)
    }

    /// One tree's hash of a whole message; see [`hash_portable`].
    #[inline]
    pub(crate) fn hash(&self, level_key: &[u64], blocks: &[u8], last: Option<u64>, scratch: &mut [u64]) -> u64 {
        (self.hash)(level_key, blocks, last, scratch)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
mod x86 {
    use core::arch::x86_64::{
        __m128i, __m256i, __m512i, _mm_add_epi64, _mm_loadu_si128, _mm_mul_epu32, _mm_set1_epi64x, _mm_srli_epi64,
        _mm_storeu_si128, _mm_unpackhi_epi64, _mm_unpacklo_epi64, _mm256_add_epi64, _mm256_blend_epi32,
        _mm256_loadu_si256, _mm256_mul_epu32, _mm256_permute4x64_epi64, _mm256_set1_epi64x, _mm256_srli_epi64,
        _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm512_add_epi64, _mm512_loadu_si512,
        _mm512_mask_set1_epi64, _mm512_mul_epu32, _mm512_permutex2var_epi64, _mm512_permutexvar_epi64,
        _mm512_set1_epi64, _mm512_setr_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
    };

    use super::super::enh;
    use super::{Backend, Level, NODE_SLOTS, TreeKernels, absorb_with, hash_with};

    /// [`Level`] in AVX2. Made only inside functions that run after AVX2 was
    /// detected.
    pub(super) struct Avx2(());

    impl Level for Avx2 {
        #[inline(always)]
        fn first(&self, key: u64, blocks: &[u8], extra: Option<u64>, nodes: &mut [u64]) {
            // SAFETY: AVX2 was detected (the only place an `Avx2` is made).
            unsafe { first_avx2(key, blocks, extra, nodes) }
        }

        #[inline(always)]
        fn up(&self, key: u64, nodes: &mut [u64], pairs: usize) {
            // The top levels: a vector's latency (shuffles, and a load that
            // waits for the previous level's store) would exceed the scalar
            // code's, and there is no throughput to gain.
            if pairs < 8 {
                enh::level_up(key, nodes, 0, pairs);
                return;
            }
            let groups = pairs.div_ceil(4);
            assert!(8 * groups <= nodes.len());
            let words = nodes.as_mut_ptr();
            // SAFETY: AVX2 was detected; group g reads words 8g .. 8g + 8
            // (within `nodes`, checked above) and then writes words 4g ..
            // 4g + 4, in place as `level_avx2` allows. Past `pairs` it
            // writes nodes that `Level::up` may overwrite.
            unsafe { level_avx2(key, words.cast_const().cast(), words, groups) };
        }
    }

    /// [`Avx2`]'s level 1.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn first_avx2(key: u64, blocks: &[u8], extra: Option<u64>, nodes: &mut [u64]) {
        let pairs = blocks.len() / 16;
        // A run of under 16 pairs (256 bytes) is the whole of a short
        // message, whose higher levels are all scalar: 128-bit vectors, whose
        // nodes a scalar load takes straight from the store (from a 256-bit
        // store it waits longer), and the odd pair scalar.
        if pairs < 16 {
            assert!(pairs < nodes.len());
            // SAFETY: `blocks` holds 32 bytes and `nodes` 2 words per
            // group of 2 pairs, and the two do not overlap.
            unsafe { level_sse2(key, blocks.as_ptr(), nodes.as_mut_ptr(), pairs / 2) };
            let done = pairs & !1;
            enh::level_one(key, &blocks[16 * done..], &mut nodes[done..pairs]);
            if let Some(node) = extra {
                nodes[pairs] = node;
            }
            return;
        }
        let groups = pairs / 4;
        assert!(pairs + 4 <= nodes.len());
        let (src, dst) = (blocks.as_ptr(), nodes.as_mut_ptr());
        // SAFETY: `blocks` holds 64 bytes and `nodes` 4 words per group,
        // and the two do not overlap (one is borrowed mutably).
        unsafe { level_avx2(key, src, dst, groups) };
        let (done, tail_pairs) = (4 * groups, pairs % 4);
        if tail_pairs == 0 && extra.is_none() {
            return;
        }
        // The last vector, stored where the next whole one would go: a
        // higher level's loads then each meet one store of this level
        // (a load that spans two stores waits for both to reach the
        // cache, `docs/performance-log.md` section 23).
        // SAFETY: the 64 bytes from pair `pairs - 4` are in `blocks`.
        let last_four = unsafe { enh_avx2(key, src.add(16 * (pairs - 4))) };
        // Lanes 4 - tail_pairs .. 4 to lanes 0 .. tail_pairs.
        let tail = match tail_pairs {
            1 => _mm256_permute4x64_epi64::<0b10_01_00_11>(last_four),
            2 => _mm256_permute4x64_epi64::<0b01_00_11_10>(last_four),
            3 => _mm256_permute4x64_epi64::<0b00_11_10_01>(last_four),
            _ => last_four,
        };
        let tail = match extra {
            None => tail,
            Some(node) => {
                let node = _mm256_set1_epi64x(node as i64);
                match tail_pairs {
                    0 => node,
                    1 => _mm256_blend_epi32::<0b0000_1100>(tail, node),
                    2 => _mm256_blend_epi32::<0b0011_0000>(tail, node),
                    _ => _mm256_blend_epi32::<0b1100_0000>(tail, node),
                }
            }
        };
        // SAFETY: words `done .. done + 4` <= `pairs + 4` are in
        // `nodes`, checked above.
        unsafe { _mm256_storeu_si256(dst.add(done).cast(), tail) };
    }

    /// [`Level`] in AVX-512 for groups of 8 nodes, and AVX2 for a level 1
    /// of fewer. Made only inside functions that run after AVX-512 F/BW/VL
    /// and AVX2 were detected.
    pub(super) struct Avx512(());

    impl Level for Avx512 {
        #[inline(always)]
        fn first(&self, key: u64, blocks: &[u8], extra: Option<u64>, nodes: &mut [u64]) {
            let pairs = blocks.len() / 16;
            if pairs < 8 {
                Avx2(()).first(key, blocks, extra, nodes);
                return;
            }
            // SAFETY: AVX-512 F was detected (the only place an `Avx512` is
            // made).
            unsafe { first_avx512(key, blocks, extra, nodes) }
        }

        #[inline(always)]
        fn up(&self, key: u64, nodes: &mut [u64], pairs: usize) {
            if pairs < 8 {
                Avx2(()).up(key, nodes, pairs);
                return;
            }
            let groups = pairs.div_ceil(8);
            assert!(16 * groups <= nodes.len());
            let words = nodes.as_mut_ptr();
            // SAFETY: AVX-512 F was detected; group g reads words 16g ..
            // 16g + 16 (within `nodes`, checked above) and then writes words
            // 8g .. 8g + 8, in place as `level_avx512` allows. Past `pairs`
            // it writes nodes that `Level::up` may overwrite.
            unsafe { level_avx512(key, words.cast_const().cast(), words, groups) };
        }
    }

    /// [`Avx512`]'s level 1 of 8 pairs or more: whole vectors of 8 nodes,
    /// then the pairs past the last whole vector with `extra` after them,
    /// as one vector stored where the next whole one would go, so that
    /// each load of the level above meets one store (a load that spans two
    /// stores waits for both to reach the cache, `docs/performance-log.md`
    /// section 23). The last vector is the 8 pairs that end the level,
    /// rotated down.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn first_avx512(key: u64, blocks: &[u8], extra: Option<u64>, nodes: &mut [u64]) {
        let pairs = blocks.len() / 16;
        assert!(pairs >= 8 && pairs + 8 <= nodes.len());
        let (src, dst) = (blocks.as_ptr(), nodes.as_mut_ptr());
        // SAFETY: `blocks` holds 128 bytes and `nodes` 8 words per group,
        // and the two do not overlap (one is borrowed mutably).
        unsafe { level_avx512(key, src, dst, pairs / 8) };
        let (done, tail_pairs) = (pairs & !7, pairs % 8);
        if tail_pairs == 0 {
            if let Some(node) = extra {
                nodes[pairs] = node;
            }
            return;
        }
        // SAFETY: the 128 bytes from pair `pairs - 8` are in `blocks`.
        let last_eight = unsafe { enh_avx512(key, src.add(16 * (pairs - 8))) };
        // Lane i takes lane i + 8 - tail_pairs (`vpermq` reads an index
        // mod 8): pairs `done .. pairs` to lanes 0 .. tail_pairs.
        let rotate =
            _mm512_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64((8 - tail_pairs) as i64));
        let tail = _mm512_permutexvar_epi64(rotate, last_eight);
        let tail = match extra {
            None => tail,
            Some(node) => _mm512_mask_set1_epi64(tail, 1 << tail_pairs, node as i64),
        };
        // SAFETY: words `done .. done + 8` <= `pairs + 8` are in `nodes`,
        // checked above.
        unsafe { _mm512_storeu_si512(dst.add(done).cast(), tail) };
    }

    /// One level: `dst[s] = ENH(key, src[2s + 1], src[2s])` for the `4 *
    /// groups` nodes `s`, with `src` read as little-endian 64-bit words.
    ///
    /// # Safety
    /// AVX2 must be available. `src` must be valid for reading `64 * groups`
    /// bytes, `dst` for writing `4 * groups` words, and any overlap must be
    /// `dst == src` (in place: group g reads its 8 words before writing its
    /// 4, and no later group reads below word 8(g + 1)).
    #[target_feature(enable = "avx2")]
    unsafe fn level_avx2(key: u64, src: *const u8, dst: *mut u64, groups: usize) {
        for group in 0..groups {
            // SAFETY: group < groups, so bytes 64 * group .. + 64 are in
            // `src` and words 4 * group .. + 4 in `dst` (caller's contract);
            // the loads come before the store.
            unsafe { _mm256_storeu_si256(dst.add(4 * group).cast(), enh_avx2(key, src.add(64 * group))) };
        }
    }

    /// One level for `2 * groups` nodes in 128-bit vectors: `dst[s] =
    /// ENH(key, src[2s + 1], src[2s])`, with `src` read as little-endian
    /// 64-bit words.
    ///
    /// # Safety
    /// `src` must be valid for reading `32 * groups` bytes and `dst` for
    /// writing `2 * groups` words, not overlapping.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn level_sse2(key: u64, src: *const u8, dst: *mut u64, groups: usize) {
        let key_low = _mm_set1_epi64x(key as i64);
        let key_high = _mm_set1_epi64x((key >> 32) as i64);
        for group in 0..groups {
            // SAFETY: group < groups, so bytes 32 * group .. + 32 are in
            // `src` and words 2 * group .. + 2 in `dst` (caller's contract).
            let (first, second): (__m128i, __m128i) = unsafe {
                (_mm_loadu_si128(src.add(32 * group).cast()), _mm_loadu_si128(src.add(32 * group + 16).cast()))
            };
            let earlier = _mm_unpacklo_epi64(first, second);
            let later = _mm_unpackhi_epi64(first, second);
            let low = _mm_add_epi64(earlier, key_low);
            let high = _mm_add_epi64(_mm_srli_epi64::<32>(earlier), key_high);
            let node = _mm_add_epi64(_mm_mul_epu32(low, high), later);
            // SAFETY: see above.
            unsafe { _mm_storeu_si128(dst.add(2 * group).cast(), node) };
        }
    }

    /// The 4 nodes `ENH(key, src[2s + 1], src[2s])`, s = 0..4, in order,
    /// of the 64 bytes at `src` (little-endian 64-bit words).
    ///
    /// # Safety
    /// AVX2 must be available, and `src` valid for reading 64 bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn enh_avx2(key: u64, src: *const u8) -> __m256i {
        let key_low = _mm256_set1_epi64x(key as i64);
        let key_high = _mm256_set1_epi64x((key >> 32) as i64);
        // SAFETY: the caller's contract.
        let (first, second): (__m256i, __m256i) =
            unsafe { (_mm256_loadu_si256(src.cast()), _mm256_loadu_si256(src.add(32).cast())) };
        // Within each 128-bit half: the earlier and later words of the
        // pairs, so the lanes hold pairs 0, 2, 1, 3.
        let earlier = _mm256_unpacklo_epi64(first, second);
        let later = _mm256_unpackhi_epi64(first, second);
        // vpmuludq reads the low 32 bits of each lane, so 64-bit adds give
        // the 32-bit sums L(a) +32 L(k) and U(a) +32 U(k).
        let low = _mm256_add_epi64(earlier, key_low);
        let high = _mm256_add_epi64(_mm256_srli_epi64::<32>(earlier), key_high);
        let node = _mm256_add_epi64(_mm256_mul_epu32(low, high), later);
        // Lanes 0, 2, 1, 3 back to pairs 0, 1, 2, 3.
        _mm256_permute4x64_epi64::<0b11_01_10_00>(node)
    }

    /// One level: `dst[s] = ENH(key, src[2s + 1], src[2s])` for the `8 *
    /// groups` nodes `s`, with `src` read as little-endian 64-bit words.
    ///
    /// # Safety
    /// AVX-512 F must be available. `src` must be valid for reading `128 *
    /// groups` bytes, `dst` for writing `8 * groups` words, and any overlap
    /// must be `dst == src` (in place: group g reads its 16 words before
    /// writing its 8, and no later group reads below word 16(g + 1)).
    #[target_feature(enable = "avx512f")]
    unsafe fn level_avx512(key: u64, src: *const u8, dst: *mut u64, groups: usize) {
        for group in 0..groups {
            // SAFETY: group < groups, so bytes 128 * group .. + 128 are in
            // `src` and words 8 * group .. + 8 in `dst` (caller's contract);
            // the loads come before the store.
            unsafe { _mm512_storeu_si512(dst.add(8 * group).cast(), enh_avx512(key, src.add(128 * group))) };
        }
    }

    /// The 8 nodes `ENH(key, src[2s + 1], src[2s])`, s = 0..8, in order,
    /// of the 128 bytes at `src` (little-endian 64-bit words).
    ///
    /// # Safety
    /// AVX-512 F must be available, and `src` valid for reading 128 bytes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn enh_avx512(key: u64, src: *const u8) -> __m512i {
        let key_low = _mm512_set1_epi64(key as i64);
        let key_high = _mm512_set1_epi64((key >> 32) as i64);
        let earlier_index = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
        let later_index = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
        // SAFETY: the caller's contract.
        let (first, second): (__m512i, __m512i) =
            unsafe { (_mm512_loadu_si512(src.cast()), _mm512_loadu_si512(src.add(64).cast())) };
        let earlier = _mm512_permutex2var_epi64(first, earlier_index, second);
        let later = _mm512_permutex2var_epi64(first, later_index, second);
        // vpmuludq reads the low 32 bits of each lane, so 64-bit adds give
        // the 32-bit sums L(a) +32 L(k) and U(a) +32 U(k).
        let low = _mm512_add_epi64(earlier, key_low);
        let high = _mm512_add_epi64(_mm512_srli_epi64::<32>(earlier), key_high);
        _mm512_add_epi64(_mm512_mul_epu32(low, high), later)
    }

    /// Run only after run-time detection of AVX2 (`Backend::badger_tree_kernels`,
    /// the tests).
    pub(crate) const AVX2: TreeKernels =
        TreeKernels { backend: Backend::Avx2, absorb: avx2_absorb_checked, hash: avx2_hash_checked };
    /// Run only after run-time detection of AVX-512 F/BW/VL and AVX2.
    pub(crate) const AVX512: TreeKernels =
        TreeKernels { backend: Backend::Avx512, absorb: avx512_absorb_checked, hash: avx512_hash_checked };

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn avx512_absorb(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8], scratch: &mut [u64]) {
        absorb_with(level_key, nodes, count, blocks, scratch, &Avx512(()))
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn avx512_hash(level_key: &[u64], blocks: &[u8], last: Option<u64>, scratch: &mut [u64]) -> u64 {
        hash_with(level_key, blocks, last, scratch, &Avx512(()))
    }

    #[target_feature(enable = "avx2")]
    fn avx2_absorb(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8], scratch: &mut [u64]) {
        absorb_with(level_key, nodes, count, blocks, scratch, &Avx2(()))
    }

    #[target_feature(enable = "avx2")]
    fn avx2_hash(level_key: &[u64], blocks: &[u8], last: Option<u64>, scratch: &mut [u64]) -> u64 {
        hash_with(level_key, blocks, last, scratch, &Avx2(()))
    }

    fn avx512_absorb_checked(
        level_key: &[u64],
        nodes: &mut [u64; NODE_SLOTS],
        count: u64,
        blocks: &[u8],
        scratch: &mut [u64],
    ) {
        // SAFETY: only `AVX512` holds this, run after run-time detection of
        // AVX-512 F/BW/VL and AVX2.
        unsafe { avx512_absorb(level_key, nodes, count, blocks, scratch) }
    }

    fn avx512_hash_checked(level_key: &[u64], blocks: &[u8], last: Option<u64>, scratch: &mut [u64]) -> u64 {
        // SAFETY: as for `avx512_absorb_checked`.
        unsafe { avx512_hash(level_key, blocks, last, scratch) }
    }

    fn avx2_absorb_checked(
        level_key: &[u64],
        nodes: &mut [u64; NODE_SLOTS],
        count: u64,
        blocks: &[u8],
        scratch: &mut [u64],
    ) {
        // SAFETY: only `AVX2` holds this, run after run-time detection of
        // AVX2.
        unsafe { avx2_absorb(level_key, nodes, count, blocks, scratch) }
    }

    fn avx2_hash_checked(level_key: &[u64], blocks: &[u8], last: Option<u64>, scratch: &mut [u64]) -> u64 {
        // SAFETY: as for `avx2_absorb_checked`.
        unsafe { avx2_hash(level_key, blocks, last, scratch) }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// A level form against the scalar one, for every number of pairs a
        /// run has, level 1 and in place.
        fn levels_equal_the_portable_form(level: &impl Level) {
            let key = 0x9E37_79B9_7F4A_7C15 ^ 0xFFFF_FFFF;
            let blocks: Vec<u8> = (0..16 << 10).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
            for pairs in 0..=enh::MAX_LEVEL_ONE {
                for extra in [None, Some(0x0123_4567_89AB_CDEF)] {
                    let mut expect = vec![0; pairs + 1];
                    enh::level_one(key, &blocks[..16 * pairs], &mut expect[..pairs]);
                    expect[pairs] = extra.unwrap_or(0);
                    let mut fast = vec![0; pairs + 1 + enh::UP_SLACK];
                    level.first(key, &blocks[..16 * pairs], extra, &mut fast);
                    fast[pairs] = if extra.is_some() { fast[pairs] } else { 0 };
                    assert_eq!(fast[..=pairs], expect, "level 1, {pairs} pairs, extra {extra:?}");
                }
                let mut nodes: Vec<u64> =
                    (0..(2 * pairs + enh::UP_SLACK) as u64).map(|i| i.wrapping_mul(0xD6E8_FEB8_6659_FD93)).collect();
                let mut expect = nodes.clone();
                enh::level_up(key, &mut expect, 0, pairs);
                level.up(key, &mut nodes, pairs);
                assert_eq!(nodes[..pairs], expect[..pairs], "in place, {pairs} pairs");
            }
        }

        #[test]
        fn avx2_levels_equal_the_portable_form() {
            assert!(std::is_x86_feature_detected!("avx2"), "this CPU lacks AVX2: run it where it is");
            levels_equal_the_portable_form(&Avx2(()));
        }

        /// Only a CPU with AVX-512 runs it: ignored by a plain `cargo test`,
        /// so that elsewhere it shows as a skip, not a pass; `make test` runs
        /// it where the CPU has AVX-512 (scripts/test-backends.sh), as does
        /// `cargo test -- --ignored avx512`.
        #[test]
        #[ignore = "needs AVX-512 F (make test runs it where the CPU has it: test-backends/avx512-only)"]
        fn avx512_levels_equal_the_portable_form() {
            assert!(std::is_x86_feature_detected!("avx512f"), "this CPU lacks AVX-512 F: run it where it is");
            assert!(std::is_x86_feature_detected!("avx2"), "this CPU lacks AVX2: run it where it is");
            levels_equal_the_portable_form(&Avx512(()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::enh;
    use super::super::keys::Keys;
    use super::super::sizes::{MAX_LEVELS, MAX_TREES};
    use super::super::state::{Streaming, hash_once};
    use super::super::tree;
    use super::*;
    use rabbit::RabbitKeyOnly;
    use rabbit::cipher::KeyInit;

    /// The vector backends this CPU can run, by name.
    fn vector_backends() -> Vec<(&'static str, &'static TreeKernels)> {
        // No SIMD backend elsewhere.
        #[cfg_attr(not(all(target_arch = "x86_64", target_feature = "sse2", not(miri))), allow(unused_mut))]
        let mut backends: Vec<(&str, &TreeKernels)> = Vec::new();
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
        {
            if std::is_x86_feature_detected!("avx2") {
                backends.push(("avx2", &x86::AVX2));
            }
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx2")
            {
                backends.push(("avx512", &x86::AVX512));
            }
        }
        backends
    }

    /// The hash `M^i` of one tree for a whole message, both ways: one call
    /// (as `hash_once` takes it), and streamed (the whole blocks from count
    /// 0, then the zero-extended last block as the last run).
    fn tree_hashes(backend: &TreeKernels, level_key: &[u64], msg: &[u8]) -> [u64; 2] {
        let whole = msg.len() & !7;
        let last = (whole < msg.len()).then(|| {
            let mut block = [0u8; 8];
            block[..msg.len() - whole].copy_from_slice(&msg[whole..]);
            u64::from_le_bytes(block)
        });
        let count = msg.len().div_ceil(8) as u64;
        let one_call = enh::with_scratch(count, |scratch| backend.hash(level_key, &msg[..whole], last, scratch));
        let mut nodes = [0u64; NODE_SLOTS];
        enh::with_scratch(count, |scratch| backend.absorb(level_key, &mut nodes, 0, &msg[..whole], scratch));
        [one_call, tree::finish_portable(level_key, &nodes, whole as u64 / 8, &[], last, &mut [])]
    }

    /// Every backend this CPU can run gives the baseline build's tree hash
    /// for every message length from 0 to 4,200 bytes, under the keys of
    /// every tree for every `u` (the keys of one `u` are not those of
    /// another, docs/badger.md section 3.3); so the reference-form tests,
    /// which run the chosen backend only, cover all.
    #[test]
    fn every_available_backend_equals_the_baseline_at_every_length() {
        let backends = vector_backends();
        let msg: Vec<u8> = (0..4200u32).map(|i| (i.wrapping_mul(2_246_822_519) >> 11) as u8).collect();
        let mut checked = 0;
        for trees in 1..=MAX_TREES {
            let keys = Keys::setup(&mut RabbitKeyOnly::new(&[trees as u8; 16].into()), trees, MAX_LEVELS);
            for level_key in &keys.level_key[..trees] {
                for len in 0..=msg.len() {
                    let expect = tree_hashes(&PORTABLE, level_key, &msg[..len]);
                    assert_eq!(expect[0], expect[1], "portable, one call and streamed: u = {trees}, {len} bytes");
                    for (name, backend) in &backends {
                        assert_eq!(
                            tree_hashes(backend, level_key, &msg[..len]),
                            expect,
                            "{name}: u = {trees}, {len} bytes"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 15 * 4201 * backends.len());
    }

    /// The same from any starting count and for any number of blocks, as
    /// streaming gives them, and with a block completed from a piece's
    /// partial block given apart after them.
    #[test]
    fn every_available_backend_equals_the_baseline_from_any_count() {
        let keys: Vec<u64> = (1..=58u64).map(|k| k.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ (k << 40)).collect();
        let data: Vec<u8> = (0..200_000u32).map(|i| (i.wrapping_mul(2_246_822_519) >> 11) as u8).collect();
        let absorb = |kernels: &TreeKernels, start: u64, bytes: &[u8], apart: Option<&[u8]>| {
            let mut nodes = [0u64; NODE_SLOTS];
            let end = start + (bytes.len() / 8 + apart.map_or(0, |_| 1)) as u64;
            enh::with_scratch(end, |scratch| {
                kernels.absorb(&keys, &mut nodes, start, bytes, scratch);
                if let Some(block) = apart {
                    kernels.absorb(&keys, &mut nodes, start + (bytes.len() / 8) as u64, block, scratch);
                }
            });
            (nodes, end)
        };
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
            (6, 2047),
            (2048, 2047),
            (7, 0),
        ] {
            for apart in [None, Some(&0x0123_4567_89AB_CDEFu64.to_le_bytes()[..])] {
                let bytes = &data[..8 * blocks];
                let (expect, end) = absorb(&PORTABLE, start, bytes, apart);
                for (name, backend) in &vector_backends() {
                    let (nodes, _) = absorb(backend, start, bytes, apart);
                    for height in 0..64 - end.leading_zeros() as usize {
                        if end >> height & 1 == 1 {
                            assert_eq!(
                                nodes[height], expect[height],
                                "{name}: start {start}, {blocks} blocks, apart {apart:?}, height {height}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The pieces a message of `len` bytes is streamed in: whole; byte by
    /// byte; in pieces of 7, 9 and 1,500 bytes (each continuing a partial
    /// block); and cut in two at every multiple of 64 bytes (a level-1
    /// vector's blocks under AVX2) and a byte either side of it, and at
    /// each byte of the last block.
    fn splits(len: usize) -> Vec<Vec<usize>> {
        let mut splits = vec![vec![len], vec![1; len]];
        for piece in [7, 9, 1500] {
            let mut pieces = vec![piece; len / piece];
            pieces.push(len % piece);
            splits.push(pieces);
        }
        let boundaries = (0..=len + 1).step_by(64).flat_map(|at| [at.saturating_sub(1), at, at + 1]);
        for cut in boundaries.chain(len.saturating_sub(8)..len).filter(|&cut| cut <= len) {
            splits.push(vec![cut, len - cut]);
        }
        splits
    }

    /// The streaming state under every backend this CPU can run, and the
    /// baseline build's, gives the baseline's one-shot `S^1..S^u` for every
    /// message length from 0 to 4,200 bytes and every `u`, in every split
    /// of [`splits`]; one state streams all of them, so each message also
    /// starts after a reset. Under emulation (`make test-cross` sets
    /// `FASTMAC_TEST_EMULATED`) the lengths stop at 1,100 bytes: byte by
    /// byte, the cost grows with the square of the longest length (48 s of
    /// qemu-aarch64 to 4,200 bytes), and there no vector backend exists, so
    /// it streams the portable code alone; test-rust runs every length.
    #[test]
    fn every_available_backend_streams_the_baseline_hash_in_every_split() {
        let longest = if std::env::var_os("FASTMAC_TEST_EMULATED").is_some() { 1100 } else { 4200 };
        let msg: Vec<u8> = (0..longest).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 9) as u8).collect();
        let mut backends = vector_backends();
        backends.push(("portable", &PORTABLE));
        let mut checked = 0;
        for trees in 1..=MAX_TREES {
            let portable = Keys::setup(&mut RabbitKeyOnly::new(&[0x40 + trees as u8; 16].into()), trees, MAX_LEVELS);
            let portable = Keys { trees: &PORTABLE, ..portable };
            for (name, backend) in &backends {
                let keys = Keys { trees: backend, ..portable.clone() };
                let mut stream = Streaming::default();
                for len in 0..=msg.len() {
                    let expect = hash_once(&portable, trees, &msg[..len]).unwrap();
                    for split in splits(len) {
                        let mut at = 0;
                        for piece in &split {
                            stream.update(&keys, trees, &msg[at..at + piece]);
                            at += piece;
                        }
                        assert_eq!(
                            stream.finalize_reset(&keys, trees).unwrap(),
                            expect,
                            "{name}: u = {trees}, {len} bytes in pieces of {:?}",
                            &split[..split.len().min(4)]
                        );
                        checked += 1;
                    }
                }
            }
        }
        let per_backend: usize = (0..=msg.len()).map(|len| splits(len).len()).sum();
        assert_eq!(checked, MAX_TREES * backends.len() * per_backend);
    }
}
