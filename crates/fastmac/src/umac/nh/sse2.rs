//! NH with SSE2 (128-bit), which every x86-64 CPU has: one block at a time,
//! the low and high 16 bytes of a block in two registers, so the pairs
//! (j, j + 4) of RFC 4418 section 5.2.2 line up lane by lane.
//!
//! Where SSE2 is part of the target (every x86-64 target with an operating
//! system), these are plain functions that always inline: the other
//! backends hand [`nh`] one or two blocks (`NhKey::sums`), and inlined
//! into a caller that keeps the sums in locals, the sums never go through
//! memory (as a call's would, each store read back right after: a
//! store-forwarding stall on a short message). Elsewhere
//! (`x86_64-unknown-none`) they enable SSE2 themselves and stay calls.
#![allow(unsafe_code)]
// SIMD intrinsics; each block states its safety
// With SSE2 enabled per function, the unsafe blocks around intrinsics are
// redundant there; they are needed where it comes from the target.
#![cfg_attr(not(target_feature = "sse2"), allow(unused_unsafe))]

use core::arch::x86_64::{
    __m128i, _MM_HINT_T0, _mm_add_epi32, _mm_add_epi64, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_mul_epu32,
    _mm_prefetch, _mm_set_epi64x, _mm_setzero_si128, _mm_shuffle_epi32, _mm_unpackhi_epi64,
};

use super::block::{BLOCK, tail_words};
use super::key::NhKey;

/// `vpshufd` pattern that moves the odd 32-bit words into the even slots,
/// where `pmuludq` reads them (cheaper than a 64-bit shift on Zen 5).
const ODD_TO_EVEN: i32 = 0b11_11_01_01;

/// SSE2 NH; see [`NhKey::sums`]. It reads the key's quads one at a time,
/// so it serves both layouts: `SPLIT` says which the key is in.
///
/// # Safety
/// The CPU must support SSE2 (always true on x86-64).
#[cfg_attr(target_feature = "sse2", inline(always))]
#[cfg_attr(not(target_feature = "sse2"), target_feature(enable = "sse2"))]
pub(super) unsafe fn nh<const T: usize, const SPLIT: bool>(
    key: &NhKey,
    first_block: usize,
    data: &[u8],
    acc: &mut [u64; T],
) {
    let blocks = data.chunks_exact(BLOCK);
    let rest = blocks.remainder();
    // Two accumulators per iteration (even and odd products) hide the
    // 2-cycle latency of the 64-bit add.
    // SAFETY: SSE2 is available (this function's contract).
    let zero = unsafe { _mm_setzero_si128() };
    let mut even = [zero; T];
    let mut odd = [zero; T];
    let mut index = first_block;
    for block in blocks {
        // SAFETY: `block` is 32 readable bytes; `index` is below 32.
        unsafe {
            let (low, high) = (_mm_loadu_si128(block.as_ptr().cast()), _mm_loadu_si128(block.as_ptr().add(16).cast()));
            nh_block::<T, SPLIT>(key, index, low, high, &mut even, &mut odd);
        }
        index += 1;
    }
    if !rest.is_empty() {
        // SAFETY: as above, for the zero-padded last block; SSE2 is
        // available.
        unsafe {
            let (low, high) = tail_quads(rest);
            nh_block::<T, SPLIT>(key, index, low, high, &mut even, &mut odd);
        }
    }
    for t in 0..T {
        // Both lanes added in a register and moved out with `movq`: a
        // store of the vector read back as two words would stall.
        // SAFETY: SSE2 is available.
        let total = unsafe {
            let sum = _mm_add_epi64(even[t], odd[t]);
            _mm_cvtsi128_si64(_mm_add_epi64(sum, _mm_unpackhi_epi64(sum, sum)))
        };
        acc[t] = acc[t].wrapping_add(total as u64);
    }
}

/// The partial last block (1 to 31 bytes) zero-padded, as its low and high
/// 16 bytes, built in registers from [`tail_words`].
///
/// # Safety
/// The CPU must support SSE2.
#[cfg_attr(target_feature = "sse2", inline(always))]
#[cfg_attr(not(target_feature = "sse2"), inline, target_feature(enable = "sse2"))]
pub(super) unsafe fn tail_quads(rest: &[u8]) -> (__m128i, __m128i) {
    let w = tail_words(rest).map(|word| word as i64);
    // SAFETY: SSE2 is available (this function's contract).
    unsafe { (_mm_set_epi64x(w[1], w[0]), _mm_set_epi64x(w[3], w[2])) }
}

/// One block given as its low and high 16 bytes.
///
/// # Safety
/// SSE2; `index` is below 32.
#[cfg_attr(target_feature = "sse2", inline(always))]
#[cfg_attr(not(target_feature = "sse2"), inline, target_feature(enable = "sse2"))]
unsafe fn nh_block<const T: usize, const SPLIT: bool>(
    key: &NhKey,
    index: usize,
    low: __m128i,
    high: __m128i,
    even: &mut [__m128i; T],
    odd: &mut [__m128i; T],
) {
    for t in 0..T {
        // Iteration t's key for block `index` is quads 2 * index + t and the
        // one after (the Toeplitz shift is one quad per iteration).
        let q = 2 * index + t;
        // SAFETY: quads q + 1 <= 2 * 31 + 3 + 1 < 68, inside the key in
        // either layout.
        unsafe {
            let x = _mm_add_epi32(low, _mm_loadu_si128(key.quad_ptr::<SPLIT>(q).cast()));
            let y = _mm_add_epi32(high, _mm_loadu_si128(key.quad_ptr::<SPLIT>(q + 1).cast()));
            even[t] = _mm_add_epi64(even[t], _mm_mul_epu32(x, y));
            odd[t] = _mm_add_epi64(
                odd[t],
                _mm_mul_epu32(_mm_shuffle_epi32(x, ODD_TO_EVEN), _mm_shuffle_epi32(y, ODD_TO_EVEN)),
            );
        }
    }
}

/// Asks for the cache line holding `at`, into every level (SSE's
/// `prefetcht0`, in the x86-64 baseline).
#[inline(always)]
pub(super) fn prefetch(at: *const u8) {
    // SAFETY: a prefetch is a hint: it reads nothing the program sees and
    // never faults, whatever the address; SSE is in the x86-64 baseline.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast()) };
}
