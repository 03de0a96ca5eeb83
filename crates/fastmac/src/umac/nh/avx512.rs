//! NH with AVX-512 (F + BW + VL), in the layouts `docs/performance.md`, "NH:
//! layouts and what bounds them", measured best on Zen 5:
//!
//! * T = 4, iteration-parallel ("zt4"): a block's low and high quads are
//!   broadcast to all four 128-bit lanes (a pure load), and lane `t` adds
//!   the key of iteration `t`; the 16-byte Toeplitz shift makes that one
//!   contiguous load of the natural key. No permute in the loop. (Where a
//!   core executes 512-bit operations as two 256-bit halves, `platform.rs`
//!   runs AVX2's iteration-parallel code for T = 4 instead.)
//! * T = 1 to 3, X/Y: per 128 bytes, the low quads of four blocks are
//!   gathered into X and the high quads into Y (one `vshufi64x2` each), the
//!   key coming pre-arranged from the even/odd tables of [`NhKey`].
//!
//! Partial blocks are read with byte-masked loads (zeros past the end, no
//! fault), so a short message is hashed in place, never copied.
#![allow(unsafe_code)] // SIMD intrinsics; each block states its safety

use core::arch::x86_64::{
    __m512i, __mmask8, _MM_PERM_BADC, _MM_PERM_DDBB, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_maskz_loadu_epi8,
    _mm512_add_epi32, _mm512_add_epi64, _mm512_broadcast_i32x4, _mm512_castsi512_si128, _mm512_extracti32x4_epi32,
    _mm512_loadu_si512, _mm512_mask_add_epi64, _mm512_maskz_loadu_epi8, _mm512_mul_epu32, _mm512_permutexvar_epi64,
    _mm512_reduce_add_epi64, _mm512_set1_epi64, _mm512_setr_epi64, _mm512_setzero_si512, _mm512_shuffle_epi32,
    _mm512_shuffle_i64x2, _mm512_storeu_si512, _mm512_unpackhi_epi64, _mm512_unpacklo_epi64,
};

use super::avx2::{fetch_ahead, xy_keys};
use super::block::{BLOCK, CHUNK_BYTES, RUN_AHEAD};
use super::key::NhKey;

/// AVX-512 NH; see [`NhKey::sums`]. `AHEAD` bytes past its loads it asks
/// for the message's lines (0: none; [`RUN_AHEAD`] for a whole chunk inside
/// a run, chunk by chunk in [`ChunkRun::each`](super::ChunkRun)).
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn nh<const T: usize, const AHEAD: usize>(
    key: &NhKey,
    first_block: usize,
    data: &[u8],
    acc: &mut [u64; T],
) {
    // SAFETY: the features both layouts need are enabled here.
    unsafe {
        if T == 4 {
            iteration_parallel::<T, AHEAD>(key, first_block, data, acc)
        } else {
            xy::<T, AHEAD>(key, first_block, data, acc)
        }
    }
}

/// The four-iteration layout; `AHEAD` as in [`nh`].
///
/// # Safety
/// AVX-512 F/BW/VL; `T` is 4.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn iteration_parallel<const T: usize, const AHEAD: usize>(
    key: &NhKey,
    first_block: usize,
    data: &[u8],
    acc: &mut [u64; T],
) {
    // SAFETY: the caller's guarantees are `zt4_total`'s.
    let total = unsafe { zt4_total::<AHEAD>(key, first_block, data) };
    // 128-bit lane t (qwords 2t, 2t + 1) holds iteration t: add the qwords
    // swapped, then take each lane's low qword out with `movq` (a vector
    // stored and read back as words would stall on store forwarding).
    let totals = _mm512_add_epi64(total, _mm512_shuffle_epi32(total, _MM_PERM_BADC));
    for (t, sum) in acc.iter_mut().enumerate() {
        let lane = match t {
            0 => _mm512_castsi512_si128(totals),
            1 => _mm512_extracti32x4_epi32::<1>(totals),
            2 => _mm512_extracti32x4_epi32::<2>(totals),
            _ => _mm512_extracti32x4_epi32::<3>(totals),
        };
        *sum = sum.wrapping_add(_mm_cvtsi128_si64(lane) as u64);
    }
}

/// NH of `data` for all four iterations, not yet summed across: 128-bit
/// lane `t` holds iteration `t`'s sum in two halves (qwords `2t` and
/// `2t + 1`).
///
/// # Safety
/// AVX-512 F/BW/VL; `data` starts at block `first_block` of a chunk and
/// ends inside it.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn zt4_total<const AHEAD: usize>(key: &NhKey, first_block: usize, data: &[u8]) -> __m512i {
    // Two accumulator sets (alternate blocks) times even/odd products: four
    // independent add chains hide the 2-cycle `vpaddq` latency.
    let mut sums = [_mm512_setzero_si512(); 4];
    let ptr = data.as_ptr();
    let whole = data.len() / BLOCK;
    let words = key.words().as_ptr();
    let mut i = 0;
    while i + 2 <= whole {
        fetch_ahead::<AHEAD>(ptr.wrapping_add(BLOCK * i + AHEAD));
        // SAFETY: blocks i and i + 1 are inside `data`; key words up to
        // 8 * 31 + 4 + 16 = 268 < 272, the natural layout's words.
        unsafe {
            let (s, rest) = sums.split_at_mut(2);
            zt4_block(words.add(8 * (first_block + i)), load_quads(ptr.add(BLOCK * i)), s);
            zt4_block(words.add(8 * (first_block + i + 1)), load_quads(ptr.add(BLOCK * (i + 1))), rest);
        }
        i += 2;
    }
    let left = data.len() - BLOCK * i;
    if left > 0 {
        // One whole block, or a partial one, or a whole block and a partial.
        // SAFETY: masked loads read only the `left` bytes that exist.
        unsafe {
            let (s, _) = sums.split_at_mut(2);
            let first = left.min(BLOCK);
            zt4_block(words.add(8 * (first_block + i)), load_quads_masked(ptr.add(BLOCK * i), first), s);
            if left > BLOCK {
                let (_, rest) = sums.split_at_mut(2);
                zt4_block(
                    words.add(8 * (first_block + i + 1)),
                    load_quads_masked(ptr.add(BLOCK * (i + 1)), left - BLOCK),
                    rest,
                );
            }
        }
    }
    _mm512_add_epi64(_mm512_add_epi64(sums[0], sums[1]), _mm512_add_epi64(sums[2], sums[3]))
}

/// A block's low and high quads, each broadcast to all four lanes.
///
/// # Safety
/// 32 readable bytes at `block`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn load_quads(block: *const u8) -> (__m512i, __m512i) {
    // SAFETY: the caller guarantees the 32 bytes.
    unsafe {
        (
            _mm512_broadcast_i32x4(_mm_loadu_si128(block.cast())),
            _mm512_broadcast_i32x4(_mm_loadu_si128(block.add(16).cast())),
        )
    }
}

/// As [`load_quads`] for the first `len` (1..=32) bytes, the rest zero.
///
/// # Safety
/// `len` readable bytes at `block`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn load_quads_masked(block: *const u8, len: usize) -> (__m512i, __m512i) {
    let low_mask = byte_mask16(len);
    let high_mask = byte_mask16(len.saturating_sub(16));
    // SAFETY: masked-off bytes are neither read nor faulted on.
    unsafe {
        (
            _mm512_broadcast_i32x4(_mm_maskz_loadu_epi8(low_mask, block.cast())),
            _mm512_broadcast_i32x4(_mm_maskz_loadu_epi8(high_mask, block.add(16).cast())),
        )
    }
}

/// One block, all four iterations, into `sums` (even, odd products).
///
/// # Safety
/// 20 key words readable at `words`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn zt4_block(words: *const u32, (low, high): (__m512i, __m512i), sums: &mut [__m512i]) {
    // SAFETY: the caller guarantees words[0..20].
    unsafe {
        let x = _mm512_add_epi32(low, _mm512_loadu_si512(words.cast()));
        let y = _mm512_add_epi32(high, _mm512_loadu_si512(words.add(4).cast()));
        sums[0] = _mm512_add_epi64(sums[0], _mm512_mul_epu32(x, y));
        sums[1] = _mm512_add_epi64(
            sums[1],
            _mm512_mul_epu32(_mm512_shuffle_epi32(x, _MM_PERM_DDBB), _mm512_shuffle_epi32(y, _MM_PERM_DDBB)),
        );
    }
}

/// The X/Y layout; `AHEAD` as in [`iteration_parallel`].
///
/// # Safety
/// AVX-512 F/BW/VL; `T` is 1 to 3; the key in the split layout.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn xy<const T: usize, const AHEAD: usize>(key: &NhKey, first_block: usize, data: &[u8], acc: &mut [u64; T]) {
    // SAFETY: the caller's guarantees are `xy_vectors`'.
    let vectors = unsafe { xy_vectors::<T, AHEAD>(key, first_block, data) };
    for t in 0..T {
        acc[t] = acc[t].wrapping_add(_mm512_reduce_add_epi64(vectors[t]) as u64);
    }
}

/// NH of `data` for `T` iterations, not yet summed across: iteration `t`'s
/// sum is the sum of the eight qwords of vector `t`.
///
/// # Safety
/// AVX-512 F/BW/VL; `data` starts at block `first_block` of a chunk and
/// ends inside it.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn xy_vectors<const T: usize, const AHEAD: usize>(key: &NhKey, first_block: usize, data: &[u8]) -> [__m512i; T] {
    let mut even = [_mm512_setzero_si512(); T];
    let mut odd = [_mm512_setzero_si512(); T];
    let ptr = data.as_ptr();
    let groups = data.len() / (4 * BLOCK);
    for g in 0..groups {
        fetch_ahead::<AHEAD>(ptr.wrapping_add(128 * g + AHEAD));
        fetch_ahead::<AHEAD>(ptr.wrapping_add(128 * g + 64 + AHEAD));
        // SAFETY: 128 bytes at 128 * g are inside `data`.
        let (a, c) =
            unsafe { (_mm512_loadu_si512(ptr.add(128 * g).cast()), _mm512_loadu_si512(ptr.add(128 * g + 64).cast())) };
        // SAFETY: split-table quads up to b + 1 + 3 < 36 for b <= 31, T <= 3.
        unsafe { xy_group(key, first_block + 4 * g, a, c, 0xff, &mut even, &mut odd) };
    }
    let left = data.len() - 128 * groups;
    if left > 0 {
        let base = 128 * groups;
        // SAFETY: masked loads read only the `left` bytes that exist.
        let (a, c) = unsafe {
            (
                _mm512_maskz_loadu_epi8(byte_mask64(left), ptr.add(base).cast()),
                _mm512_maskz_loadu_epi8(byte_mask64(left.saturating_sub(64)), ptr.add(base + 64).cast()),
            )
        };
        // Only the qwords of the blocks that exist are accumulated.
        let blocks = left.div_ceil(BLOCK);
        let lanes: __mmask8 = ((1u32 << (2 * blocks)) - 1) as u8;
        // SAFETY: as above.
        unsafe { xy_group(key, first_block + 4 * groups, a, c, lanes, &mut even, &mut odd) };
    }
    let mut vectors = [_mm512_setzero_si512(); T];
    for t in 0..T {
        vectors[t] = _mm512_add_epi64(even[t], odd[t]);
    }
    vectors
}

/// NH of `N` whole chunks for `T` iterations, `N * T` at most 8 (for
/// [`ChunkRun::each`](super::ChunkRun)): word `c * T + t`
/// of the result is chunk `c`'s sum for iteration `t`, plus `init`;
/// `between(c)` runs after chunk `c`'s NH. The chunks' vectors are summed
/// across together ([`sum_across`]), where one chunk at a time would take
/// each sum out of its own register.
///
/// # Safety
/// AVX-512 F/BW/VL; `N * T` is at most 8.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn chunk_batch<const T: usize, const N: usize>(
    key: &NhKey,
    chunks: &[[u8; CHUNK_BYTES]; N],
    init: u64,
    mut between: impl FnMut(usize),
) -> [u64; 8] {
    debug_assert!(N * T <= 8);
    let mut vectors = [_mm512_setzero_si512(); 8];
    let sums = if T == 4 {
        for (c, chunk) in chunks.iter().enumerate() {
            // SAFETY: a whole chunk from block 0.
            vectors[c] = unsafe { zt4_total::<RUN_AHEAD>(key, 0, chunk) };
            between(c);
        }
        // Lane t of a chunk's total holds iteration t's two halves: added
        // across with the next chunk's, qword 2t + c is chunk c's sum for
        // iteration t; the permutation puts it at 4c + t.
        let pairs = _mm512_add_epi64(
            _mm512_unpacklo_epi64(vectors[0], vectors[1]),
            _mm512_unpackhi_epi64(vectors[0], vectors[1]),
        );
        _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), pairs)
    } else {
        for (c, chunk) in chunks.iter().enumerate() {
            // SAFETY: a whole chunk from block 0.
            let chunk_vectors = unsafe { xy_vectors::<T, RUN_AHEAD>(key, 0, chunk) };
            vectors[c * T..c * T + T].copy_from_slice(&chunk_vectors);
            between(c);
        }
        sum_across(&vectors)
    };
    let mut words = [0u64; 8];
    // SAFETY: `words` is 64 writable bytes.
    unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), _mm512_add_epi64(sums, _mm512_set1_epi64(init as i64))) };
    words
}

/// [`chunk_batch`] over `batches` in order, pipelined: the outputs of a
/// batch are handed to `take` while the next batch's NH runs, the last
/// batch's at the end. With more than two chunks to a batch (one and two
/// iterations) each chunk's outputs go after the same chunk of the next
/// batch; with two (three and four iterations; for four LLVM keeps
/// `take`'s L2 steps out of line, a call that saves NH's registers) both
/// go after its first chunk, one call where there were two. One function for the whole run, where each batch
/// was a call from the caller's loop (`docs/performance-log.md` section 18).
///
/// # Safety
/// AVX-512 F/BW/VL; `N * T` is at most 8.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn chunk_batches<const T: usize, const N: usize>(
    key: &NhKey,
    batches: &[[[u8; CHUNK_BYTES]; N]],
    init: u64,
    take: &mut impl FnMut([u64; T]),
) {
    let mut previous: Option<[u64; 8]> = None;
    for batch in batches {
        let hand_on = |c: usize| {
            let Some(words) = &previous else { return };
            if N > 2 {
                take(chunk_sums(words, c));
            } else if c == 0 {
                for c in 0..N {
                    take(chunk_sums(words, c));
                }
            }
        };
        // SAFETY: as this function's own contract.
        previous = Some(unsafe { chunk_batch::<T, N>(key, batch, init, hand_on) });
    }
    if let Some(words) = previous {
        for c in 0..N {
            take(chunk_sums(&words, c));
        }
    }
}

/// Chunk `c`'s sums in the words [`chunk_batch`] returns.
#[inline(always)]
fn chunk_sums<const T: usize>(words: &[u64; 8], c: usize) -> [u64; T] {
    core::array::from_fn(|t| words[c * T + t])
}

/// The eight qwords of each of eight vectors summed, as one vector whose
/// qword `j` is vector `j`'s sum: three levels of pairwise additions, each
/// halving the vectors and doubling the sums each holds.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn sum_across(v: &[__m512i; 8]) -> __m512i {
    // 128-bit lane l of pair(a, b): [a's qwords 2l and 2l + 1 added, b's].
    let pair = |a, b| _mm512_add_epi64(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
    // Lanes 0 and 2 of each plus lanes 1 and 3: from [ab, ab, ab, ab] and
    // [cd, cd, cd, cd] to [ab, ab, cd, cd], each lane half the lanes' sum.
    let fold = |x, y| {
        _mm512_add_epi64(_mm512_shuffle_i64x2::<0b10_00_10_00>(x, y), _mm512_shuffle_i64x2::<0b11_01_11_01>(x, y))
    };
    let (ab, cd, ef, gh) = (pair(v[0], v[1]), pair(v[2], v[3]), pair(v[4], v[5]), pair(v[6], v[7]));
    fold(fold(ab, cd), fold(ef, gh))
}

/// Four blocks (`a` = blocks 0-1, `c` = blocks 2-3) at block `b`, adding
/// only the qwords in `lanes` (a partial group has fewer blocks).
///
/// # Safety
/// Split-table quads up to `b + 4` exist (`T` at most 3).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn xy_group<const T: usize>(
    key: &NhKey,
    b: usize,
    a: __m512i,
    c: __m512i,
    lanes: __mmask8,
    even: &mut [__m512i; T],
    odd: &mut [__m512i; T],
) {
    let x = _mm512_shuffle_i64x2(a, c, 0b10_00_10_00); // low quads of blocks 0..3
    let y = _mm512_shuffle_i64x2(a, c, 0b11_01_11_01); // high quads
    for t in 0..T {
        let (kx, ky) = xy_keys(key, b, t);
        // SAFETY: the caller guarantees the table quads.
        let (kx, ky) = unsafe { (_mm512_loadu_si512(kx.cast()), _mm512_loadu_si512(ky.cast())) };
        let sx = _mm512_add_epi32(x, kx);
        let sy = _mm512_add_epi32(y, ky);
        even[t] = _mm512_mask_add_epi64(even[t], lanes, even[t], _mm512_mul_epu32(sx, sy));
        odd[t] = _mm512_mask_add_epi64(
            odd[t],
            lanes,
            odd[t],
            _mm512_mul_epu32(_mm512_shuffle_epi32(sx, _MM_PERM_DDBB), _mm512_shuffle_epi32(sy, _MM_PERM_DDBB)),
        );
    }
}

fn byte_mask16(len: usize) -> u16 {
    if len >= 16 { u16::MAX } else { (1u16 << len) - 1 }
}

fn byte_mask64(len: usize) -> u64 {
    if len >= 64 { u64::MAX } else { (1u64 << len) - 1 }
}
