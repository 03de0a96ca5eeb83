//! NH with AArch64 NEON (128-bit): one block at a time, its low and high 16
//! bytes in two registers so the pairs (j, j + 4) of RFC 4418 section 5.2.2
//! line up lane by lane; `umlal` multiplies the 32-bit sums into 64-bit
//! accumulators in one step.
#![allow(unsafe_code)] // SIMD intrinsics; each block states its safety

use core::arch::aarch64::{
    uint64x2_t, vaddq_u32, vdupq_n_u64, vget_low_u32, vgetq_lane_u64, vld1q_u32, vld1q_u8,
    vmlal_high_u32, vmlal_u32, vreinterpretq_u32_u8,
};

use super::{BLOCK, NhKey, split_tail};

/// NEON NH; see [`NhKey::hash`].
///
/// # Safety
/// The CPU must support NEON (always true on AArch64 Linux).
#[target_feature(enable = "neon")]
pub(super) unsafe fn nh<const T: usize>(key: &NhKey, first_block: usize, data: &[u8], acc: &mut [u64; T]) {
    let (blocks, tail) = split_tail(data);
    let mut sums = [vdupq_n_u64(0); T];
    let mut index = first_block;
    for block in blocks.chunks_exact(BLOCK) {
        // SAFETY: `block` is 32 readable bytes; `index` < 32.
        unsafe { nh_block(key, index, block.as_ptr(), &mut sums) };
        index += 1;
    }
    if let Some(tail) = tail {
        // SAFETY: the zero-padded copy of the last block.
        unsafe { nh_block(key, index, tail.as_ptr(), &mut sums) };
    }
    for t in 0..T {
        acc[t] = acc[t].wrapping_add(vgetq_lane_u64::<0>(sums[t])).wrapping_add(vgetq_lane_u64::<1>(sums[t]));
    }
}

/// # Safety
/// `block` points to 32 readable bytes and `index` is below 32.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn nh_block<const T: usize>(key: &NhKey, index: usize, block: *const u8, sums: &mut [uint64x2_t; T]) {
    // SAFETY: 32 bytes at `block` (caller); key words
    // 8 * index + 4 * t + 8 <= 8 * 31 + 20 < KEY_WORDS + 4.
    unsafe {
        // Little-endian message words, as the RFC's ENDIAN-SWAP asks.
        let low = vreinterpretq_u32_u8(vld1q_u8(block));
        let high = vreinterpretq_u32_u8(vld1q_u8(block.add(16)));
        let words = key.words.as_ptr().add(8 * index);
        for t in 0..T {
            let x = vaddq_u32(low, vld1q_u32(words.add(4 * t)));
            let y = vaddq_u32(high, vld1q_u32(words.add(4 * t + 4)));
            let s = vmlal_u32(sums[t], vget_low_u32(x), vget_low_u32(y));
            sums[t] = vmlal_high_u32(s, x, y);
        }
    }
}
