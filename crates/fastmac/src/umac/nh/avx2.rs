//! NH with AVX2 (256-bit), in the two layouts `docs/performance.md`, "NH:
//! layouts and what bounds them", measured best on this class of CPU:
//!
//! * T = 2 and 4, iteration-parallel: a block's low and high 16-byte quads
//!   are broadcast to both 128-bit lanes, and lane `l` adds the key of
//!   iteration `2p + l`. The Toeplitz shift of 16 bytes per iteration makes
//!   those keys one contiguous load of the natural key: no permutes at all.
//! * T = 1 and 3, X/Y: two blocks' low quads gathered into X and their high
//!   quads into Y (one `vperm2i128` each per 64 bytes), with the key read
//!   from the even/odd quad tables of [`NhKey`] laid out the same way.
#![allow(unsafe_code)] // SIMD intrinsics; each block states its safety

use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi64, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_loadu_si128, _mm_or_si128,
    _mm_shuffle_epi8, _mm_unpackhi_epi64, _mm_unpacklo_epi64, _mm256_add_epi32, _mm256_add_epi64,
    _mm256_broadcastsi128_si256, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_mul_epu32, _mm256_permute2x128_si256, _mm256_set_m128i, _mm256_setzero_si256, _mm256_shuffle_epi32,
    _mm256_zextsi128_si256,
};

use super::block::{BLOCK, CHUNK_BYTES, RUN_AHEAD};
use super::key::NhKey;

const ODD_TO_EVEN: i32 = 0b11_11_01_01;

/// AVX2 NH; see [`NhKey::sums`]. `AHEAD` bytes past its loads it asks for
/// the message's lines (0: none; [`RUN_AHEAD`] for a whole chunk inside a
/// run, chunk by chunk in [`ChunkRun::each`](super::ChunkRun) and in
/// [`chunk_run`], whose loop inlines it with both layouts).
///
/// # Safety
/// The CPU must support AVX2; `data` is empty or at least a block long
/// (1 to 32 bytes go to SSE2, `platform::KernelChoice::kernel`).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn nh<const T: usize, const AHEAD: usize>(
    key: &NhKey,
    first_block: usize,
    data: &[u8],
    acc: &mut [u64; T],
) {
    // SAFETY: AVX2 is enabled here, as both layouts need.
    unsafe {
        if T.is_multiple_of(2) {
            iteration_parallel::<T, AHEAD>(key, first_block, data, acc)
        } else {
            xy::<T, AHEAD>(key, first_block, data, acc)
        }
    }
}

/// NH of whole `chunks` for `T` iterations, each chunk's sums from `init`
/// handed to `take` in order (for [`ChunkRun::each`](super::ChunkRun)),
/// with the chunk loop inside this AVX2 function: each chunk's NH inlined,
/// its sums in registers, no call or `vzeroupper` per chunk. Each chunk's
/// sums go to `take` after the next chunk's NH, the last chunk's at the
/// end: `take`'s work (L2-HASH's steps, a chain of multiplications) then
/// finds its input ready and runs beside NH, where right after its own
/// chunk it would wait for the sums to be added across the vectors
/// (`docs/performance.md`, "Runs of chunks").
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn chunk_run<const T: usize>(
    key: &NhKey,
    chunks: &[[u8; CHUNK_BYTES]],
    init: u64,
    take: &mut impl FnMut([u64; T]),
) {
    let mut previous: Option<[u64; T]> = None;
    for chunk in chunks {
        let mut sums = [init; T];
        // SAFETY: AVX2 is enabled here; a whole chunk from block 0.
        unsafe { nh::<T, RUN_AHEAD>(key, 0, chunk, &mut sums) };
        if let Some(words) = previous {
            take(words);
        }
        previous = Some(sums);
    }
    if let Some(words) = previous {
        take(words);
    }
}

/// Asks for the cache line at `at` (`AHEAD` bytes past a load), if `AHEAD`
/// is not 0.
#[inline(always)]
pub(super) fn fetch_ahead<const AHEAD: usize>(at: *const u8) {
    if AHEAD > 0 {
        super::sse2::prefetch(at);
    }
}

/// The iteration-parallel layout; `AHEAD` as in [`nh`].
///
/// # Safety
/// AVX2; `T` is 2 or 4; `data` empty or at least a block long.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn iteration_parallel<const T: usize, const AHEAD: usize>(
    key: &NhKey,
    first_block: usize,
    data: &[u8],
    acc: &mut [u64; T],
) {
    let pairs = data.chunks_exact(2 * BLOCK);
    let done = data.len() - pairs.remainder().len();
    // sums[p][s]: iteration pair p, accumulator s (even/odd products), for
    // the first block of each two; `second` for the other, so that two
    // blocks' operations are in flight without waiting for each other's
    // additions.
    let mut sums = [[_mm256_setzero_si256(); 2]; 2];
    let mut second = [[_mm256_setzero_si256(); 2]; 2];
    let mut index = first_block;
    for two in pairs {
        // One request per 64 bytes.
        fetch_ahead::<AHEAD>(two.as_ptr().wrapping_add(AHEAD));
        // SAFETY: `two` is 64 readable bytes; `index + 1` is below 32.
        unsafe {
            let quad = |offset: usize| _mm_loadu_si128(two.as_ptr().add(offset).cast());
            pair_block::<T>(key, index, quad(0), quad(16), &mut sums);
            pair_block::<T>(key, index + 1, quad(32), quad(48), &mut second);
        }
        index += 2;
    }
    // The one or two blocks after the last pair, the last maybe partial
    // (zero-padded, built in registers), as a pair.
    if data.len() > done {
        // SAFETY: a whole block at `done`, or the last block; `index` (and
        // `index + 1` if there are two) is below 32.
        unsafe {
            let (low, high) = block_at(data, done);
            pair_block::<T>(key, index, low, high, &mut sums);
            if data.len() - done > BLOCK {
                let (low, high) = block_at(data, done + BLOCK);
                pair_block::<T>(key, index + 1, low, high, &mut second);
            }
        }
    }
    for (sums, second) in sums.iter_mut().zip(&second) {
        sums[0] = _mm256_add_epi64(sums[0], second[0]);
        sums[1] = _mm256_add_epi64(sums[1], second[1]);
    }
    for p in 0..T / 2 {
        // Lane l (qwords 2l, 2l + 1) holds iteration 2p + l.
        let [even_iteration, odd_iteration] = lane_totals(_mm256_add_epi64(sums[p][0], sums[p][1]));
        acc[2 * p] = acc[2 * p].wrapping_add(even_iteration);
        acc[2 * p + 1] = acc[2 * p + 1].wrapping_add(odd_iteration);
    }
}

/// One block given as its low and high 16 bytes, iteration-parallel.
///
/// # Safety
/// AVX2; `index` is below 32.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn pair_block<const T: usize>(
    key: &NhKey,
    index: usize,
    low: __m128i,
    high: __m128i,
    sums: &mut [[__m256i; 2]; 2],
) {
    // SAFETY: key words 8 * index + 8 * p + 4 + 8 <= 8 * 31 + 20 < 272, the
    // natural layout's words (this layout's, `NhKey::words`).
    unsafe {
        let low = _mm256_broadcastsi128_si256(low);
        let high = _mm256_broadcastsi128_si256(high);
        let words = key.words().as_ptr().add(8 * index);
        for (p, sums) in sums.iter_mut().enumerate().take(T / 2) {
            let x = _mm256_add_epi32(low, _mm256_loadu_si256(words.add(8 * p).cast()));
            let y = _mm256_add_epi32(high, _mm256_loadu_si256(words.add(8 * p + 4).cast()));
            sums[0] = _mm256_add_epi64(sums[0], _mm256_mul_epu32(x, y));
            sums[1] = _mm256_add_epi64(
                sums[1],
                _mm256_mul_epu32(_mm256_shuffle_epi32(x, ODD_TO_EVEN), _mm256_shuffle_epi32(y, ODD_TO_EVEN)),
            );
        }
    }
}

/// The X/Y layout; `AHEAD` as in [`iteration_parallel`].
///
/// # Safety
/// AVX2; `T` is 1 or 3; the key in the split layout; `data` empty or at
/// least a block long.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn xy<const T: usize, const AHEAD: usize>(key: &NhKey, first_block: usize, data: &[u8], acc: &mut [u64; T]) {
    let mut even = [_mm256_setzero_si256(); T];
    let mut odd = [_mm256_setzero_si256(); T];
    let pairs = data.len() / (2 * BLOCK);
    let done = 2 * pairs * BLOCK;
    // The one or two blocks after the last pair (the last maybe partial)
    // first, in the same registers (a lane with no block gets no sum):
    // the partial block's shuffles then run beside the pairs' NH.
    if data.len() > done {
        // SAFETY: AVX2 is enabled here; a block starts at `done`.
        let (first_low, first_high) = unsafe { block_at(data, done) };
        let b = first_block + 2 * pairs;
        // SAFETY (both steps): the split tables hold quads up to
        // b + 1 + 1 + 1 < 36 for b <= 31, T <= 3.
        if data.len() - done > BLOCK {
            // SAFETY: AVX2 is enabled here; the last block follows.
            let (second_low, second_high) = unsafe { block_at(data, done + BLOCK) };
            let x = _mm256_set_m128i(second_low, first_low);
            let y = _mm256_set_m128i(second_high, first_high);
            unsafe { xy_step::<T, false>(key, b, x, y, &mut even, &mut odd) };
        } else {
            let x = _mm256_zextsi128_si256(first_low);
            let y = _mm256_zextsi128_si256(first_high);
            unsafe { xy_step::<T, true>(key, b, x, y, &mut even, &mut odd) };
        }
    }
    let ptr = data.as_ptr();
    for pair in 0..pairs {
        fetch_ahead::<AHEAD>(ptr.wrapping_add(64 * pair + AHEAD));
        // SAFETY: 64 bytes at 64 * pair are inside `data`; the split
        // tables hold quads up to b + 1 + 1 + 1 < 36 for b <= 30, T <= 3.
        unsafe {
            let a = _mm256_loadu_si256(ptr.add(64 * pair).cast());
            let c = _mm256_loadu_si256(ptr.add(64 * pair + 32).cast());
            let x = _mm256_permute2x128_si256(a, c, 0x20); // low quads of both blocks
            let y = _mm256_permute2x128_si256(a, c, 0x31); // high quads
            xy_step::<T, false>(key, first_block + 2 * pair, x, y, &mut even, &mut odd);
        }
    }
    for t in 0..T {
        let [low, high] = lane_totals(_mm256_add_epi64(even[t], odd[t]));
        acc[t] = acc[t].wrapping_add(low).wrapping_add(high);
    }
}

/// Two blocks from block `b`, their low quads in `x` and high quads in
/// `y`, added to each iteration's sums; with `ONE_BLOCK`, the first only:
/// the upper lanes of `x` are zero, and of X's key too, so that their
/// products are zero.
///
/// # Safety
/// AVX2; the split tables hold the quads [`xy_keys`] gives for `b`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn xy_step<const T: usize, const ONE_BLOCK: bool>(
    key: &NhKey,
    b: usize,
    x: __m256i,
    y: __m256i,
    even: &mut [__m256i; T],
    odd: &mut [__m256i; T],
) {
    for t in 0..T {
        let (kx, ky) = xy_keys(key, b, t);
        // SAFETY: the caller keeps these loads inside the tables.
        let (kx, ky) = unsafe {
            if ONE_BLOCK {
                (_mm256_zextsi128_si256(_mm_loadu_si128(kx.cast())), _mm256_loadu_si256(ky.cast()))
            } else {
                (_mm256_loadu_si256(kx.cast()), _mm256_loadu_si256(ky.cast()))
            }
        };
        let sx = _mm256_add_epi32(x, kx);
        let sy = _mm256_add_epi32(y, ky);
        even[t] = _mm256_add_epi64(even[t], _mm256_mul_epu32(sx, sy));
        odd[t] = _mm256_add_epi64(
            odd[t],
            _mm256_mul_epu32(_mm256_shuffle_epi32(sx, ODD_TO_EVEN), _mm256_shuffle_epi32(sy, ODD_TO_EVEN)),
        );
    }
}

/// The block of `data` at byte `at`, as its low and high 16 bytes: loaded
/// if whole, else the zero-padded partial last block ([`last_block`]).
///
/// # Safety
/// AVX2, in the caller too (inlined, as [`last_block`]); `at` is below
/// `data.len()`, a multiple of the block size, and `data` is at least a
/// block long.
#[inline(always)]
unsafe fn block_at(data: &[u8], at: usize) -> (__m128i, __m128i) {
    debug_assert!(at < data.len() && at.is_multiple_of(BLOCK));
    if data.len() - at >= BLOCK {
        // SAFETY: a whole block at `at`.
        unsafe { (_mm_loadu_si128(data.as_ptr().add(at).cast()), _mm_loadu_si128(data.as_ptr().add(at + 16).cast())) }
    } else {
        // SAFETY: as this function's contract.
        unsafe { last_block(data) }
    }
}

/// The last block of `data`, partial (1 to 31 bytes), zero-padded, as its
/// low and high 16 bytes: the 32 bytes that end the data loaded and
/// shuffled down into place (`pshufb`, controls read from [`SHIFT_WINDOW`]
/// at the block's length). Fewer operations between the loads and NH than
/// words gathered one by one, as SSE2's `tail_quads` must for an input
/// shorter than a block.
///
/// # Safety
/// AVX2, in the caller too (inlined, so that the pair of registers is not
/// returned through memory); `data` is at least a block long, as the
/// kernels that call it require.
#[inline(always)]
unsafe fn last_block(data: &[u8]) -> (__m128i, __m128i) {
    let len = data.len() % BLOCK;
    debug_assert!(len > 0 && data.len() >= BLOCK);
    // Byte i of the block is byte `shift + i` of the last 32.
    let shift = BLOCK - len;
    // SAFETY: the last 32 bytes of `data` are readable; the controls are
    // 16 bytes at `shift` and `16 + shift` (below 48) of the 64-byte window.
    unsafe {
        let end = data.as_ptr().add(data.len());
        let (first, second) = (_mm_loadu_si128(end.sub(32).cast()), _mm_loadu_si128(end.sub(16).cast()));
        // A constant, promoted into the caller's read-only data and reached
        // by `lea`; a `static` of this crate was reached through the GOT,
        // one load more before the shuffles (docs/performance-log.md
        // section 30).
        let window: &'static [u8; 64] = &SHIFT_WINDOW.0;
        let window = window.as_ptr();
        let from_first = _mm_loadu_si128(window.add(16 + shift).cast());
        let from_second = _mm_loadu_si128(window.add(shift).cast());
        let low = _mm_or_si128(_mm_shuffle_epi8(first, from_first), _mm_shuffle_epi8(second, from_second));
        (low, _mm_shuffle_epi8(second, from_first))
    }
}

/// Shuffle controls for [`last_block`]: byte `k` selects byte `k - 16` of
/// a 16-byte register for `k` in 16..32, and zero elsewhere (the top bit
/// set), so the 16 controls from `16 + s` move a register down by `s`
/// bytes and the 16 from `s` move the register after it into the gap.
#[repr(align(64))]
struct ShiftWindow([u8; 64]);

const SHIFT_WINDOW: ShiftWindow = {
    let mut window = [0x80; 64];
    let mut k = 16;
    while k < 32 {
        window[k] = (k - 16) as u8;
        k += 1;
    }
    ShiftWindow(window)
};

/// Key pointers (X, Y) for iteration `t` of the blocks from block `b`, in
/// the split layout: X lane i is key quad 2(b + i) + t, Y lane i is quad
/// 2(b + i) + 1 + t.
#[inline(always)]
pub(super) fn xy_keys(key: &NhKey, b: usize, t: usize) -> (*const u32, *const u32) {
    let (even, odd) = key.tables();
    let (even, odd) = (even.as_ptr().cast::<u32>(), odd.as_ptr().cast::<u32>());
    // SAFETY of the offsets: the callers keep their loads inside the tables.
    let q = |table: *const u32, quad: usize| table.wrapping_add(4 * quad);
    if t.is_multiple_of(2) {
        (q(even, b + t / 2), q(odd, b + t / 2))
    } else {
        (q(odd, b + t / 2), q(even, b + t / 2 + 1))
    }
}

/// The sums of the two qwords of each 128-bit lane of `v`, taken out of
/// the register with `movq` and `pextrq`: NH's caller reads its sums right
/// after, and a vector stored and read back as words stalls on store
/// forwarding, once per call.
#[inline]
#[target_feature(enable = "avx2")]
fn lane_totals(v: __m256i) -> [u64; 2] {
    let (low, high) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let totals = _mm_add_epi64(_mm_unpacklo_epi64(low, high), _mm_unpackhi_epi64(low, high));
    [_mm_cvtsi128_si64(totals) as u64, _mm_extract_epi64::<1>(totals) as u64]
}
