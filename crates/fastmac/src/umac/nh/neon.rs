//! NH with AArch64 NEON (128-bit vectors): all Toeplitz iterations in one
//! sweep over the data (RFC 4418 sections 5.1 and 5.2.2).
//!
//! A 32-byte block is loaded as two vectors of four little-endian words,
//! `low = m[0..4]` and `high = m[4..8]`, so that the pairs (j, j + 4) NH
//! multiplies line up lane by lane. Iteration `t` uses the key shifted by
//! `t` quads (16 bytes), so for `T` iterations a block needs the key quads
//! `0..=T` from word `8 * block`: each is loaded once and serves as the high
//! half of iteration `t` and the low half of iteration `t + 1`.
//!
//! `vmlal_u32` (lanes 0-1) and `vmlal_high_u32` (lanes 2-3) multiply the
//! 32-bit sums into 64-bit products and add them in one instruction each,
//! wrapping mod 2^64 as NH does. Those two go to separate accumulators, so
//! every iteration has two independent multiply-accumulate chains.
#![allow(unsafe_code)] // SIMD intrinsics; each block states its safety

// Message words are read as the lanes of a byte load, which are
// little-endian words only on little-endian AArch64.
#[cfg(target_endian = "big")]
compile_error!("the NEON NH backend assumes little-endian AArch64");

use core::arch::aarch64::{
    uint32x4_t, uint64x2_t, vaddq_u32, vaddq_u64, vaddvq_u64, vdupq_n_u32, vdupq_n_u64, vget_low_u32, vld1q_u8,
    vld1q_u32, vmlal_high_u32, vmlal_u32, vreinterpretq_u32_u8,
};

use super::block::{BLOCK, CHUNK_BLOCKS, split_tail};
use super::key::NhKey;
use crate::umac::iters::MAX_ITERS;

/// NEON NH; see [`NhKey::sums`].
///
/// # Safety
/// The CPU must support NEON (always true on AArch64 Linux).
#[target_feature(enable = "neon")]
pub(super) unsafe fn nh<const T: usize>(key: &NhKey, first_block: usize, data: &[u8], acc: &mut [u64; T]) {
    // The key loads of the last block end at word 8 * 31 + 4 * T + 4, inside
    // the key's words only if the data ends inside the chunk: checked here, once
    // per call, because the loads themselves are unchecked.
    assert!(
        T <= MAX_ITERS && first_block * BLOCK + data.len() <= CHUNK_BLOCKS * BLOCK,
        "NH input must end inside its L1 chunk"
    );
    let (blocks, tail) = split_tail(data);
    let mut low_sums = [vdupq_n_u64(0); T];
    let mut high_sums = [vdupq_n_u64(0); T];
    let mut index = first_block;
    for block in blocks.chunks_exact(BLOCK) {
        // SAFETY: `block` is 32 readable bytes; `index` < 32 (asserted above).
        unsafe { nh_block(key, index, block.as_ptr(), &mut low_sums, &mut high_sums) };
        index += 1;
    }
    if let Some(tail) = tail {
        // SAFETY: the zero-padded copy of the last block; `index` < 32.
        unsafe { nh_block(key, index, tail.as_ptr(), &mut low_sums, &mut high_sums) };
    }
    for t in 0..T {
        let sum = vaddq_u64(low_sums[t], high_sums[t]);
        acc[t] = acc[t].wrapping_add(vaddvq_u64(sum));
    }
}

/// Adds one block's NH terms for every iteration `t < T`.
///
/// # Safety
/// `block` points to 32 readable bytes, `index` is below 32 and `T` at most
/// `MAX_ITERS`.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn nh_block<const T: usize>(
    key: &NhKey,
    index: usize,
    block: *const u8,
    low_sums: &mut [uint64x2_t; T],
    high_sums: &mut [uint64x2_t; T],
) {
    let mut quads: [uint32x4_t; MAX_ITERS + 1] = [vdupq_n_u32(0); MAX_ITERS + 1];
    // SAFETY: 32 bytes at `block` (caller). Key quad q <= T covers words
    // 8 * index + 4 * q .. + 4, at most 8 * 31 + 4 * 4 + 4 = 268 <= 272, the
    // natural layout's words (`NhKey::words`, the one layout of a NEON key).
    // NEON loads need no alignment.
    let (low, high) = unsafe {
        let words = key.words().as_ptr().add(8 * index);
        for (q, quad) in quads.iter_mut().enumerate().take(T + 1) {
            *quad = vld1q_u32(words.add(4 * q));
        }
        (vreinterpretq_u32_u8(vld1q_u8(block)), vreinterpretq_u32_u8(vld1q_u8(block.add(16))))
    };
    for t in 0..T {
        let x = vaddq_u32(low, quads[t]);
        let y = vaddq_u32(high, quads[t + 1]);
        low_sums[t] = vmlal_u32(low_sums[t], vget_low_u32(x), vget_low_u32(y));
        high_sums[t] = vmlal_high_u32(high_sums[t], x, y);
    }
}

#[cfg(test)]
mod tests {
    //! NEON equals the portable NH (the specification) on every message
    //! length 0..=3000, hashed chunk by chunk as L1-HASH does (whole, and
    //! split inside a chunk as streaming does), at several alignments, for
    //! 1 to 4 iterations. Runs under qemu-aarch64 in `make test`.

    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::super::block::{BLOCK, CHUNK_BLOCKS};
    use super::super::key::{KEY_WORDS, NhKey};
    use crate::umac::backend::Backend;

    const CHUNK: usize = CHUNK_BLOCKS * BLOCK;

    /// NH of each 1024-byte chunk of `msg`, every chunk fed in two calls
    /// split at the block boundary `split_block` (when inside the chunk).
    fn nh_per_chunk(key: &NhKey, msg: &[u8], iters: usize, split_block: usize) -> Vec<u64> {
        let mut out = Vec::new();
        for chunk in msg.chunks(CHUNK) {
            let mut acc: Vec<u64> = (0..iters as u64).map(|t| t.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
            let split = (split_block * BLOCK).min(chunk.len());
            key.hash(0, &chunk[..split], &mut acc);
            key.hash(split / BLOCK, &chunk[split..], &mut acc);
            out.extend(acc);
        }
        out
    }

    fn check_every_length(words: &[u32; KEY_WORDS], data: &[u8], offsets: &[usize], what: &str) -> usize {
        // One natural layout serves NEON and portable at every count.
        let neon = NhKey::new(words, Backend::Neon, 4);
        let portable = NhKey::new(words, Backend::Portable, 4);
        assert_eq!(neon.backend(), Backend::Neon, "NEON must be available on AArch64");
        let mut checked = 0;
        for len in 0..=3000 {
            for &offset in offsets {
                let msg = &data[offset..offset + len];
                for iters in 1..=4 {
                    let split_block = (len % CHUNK) / BLOCK / 2 + iters;
                    assert_eq!(
                        nh_per_chunk(&neon, msg, iters, split_block),
                        nh_per_chunk(&portable, msg, iters, split_block),
                        "{what}: len {len} offset {offset} T={iters}"
                    );
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn neon_equals_portable_on_every_length_to_3000() {
        let mut rng = StdRng::seed_from_u64(0x4e45_4f4e);
        let words: [u32; KEY_WORDS] = core::array::from_fn(|_| rng.random());
        let mut data = vec![0u8; 3000 + 16];
        rng.fill(&mut data[..]);
        // glibc returns 16-byte aligned blocks, so these are distinct alignments.
        let offsets = [0, 1, 2, 3, 4, 7, 8, 15];
        assert_eq!(check_every_length(&words, &data, &offsets, "random key"), 3001 * offsets.len() * 4);

        // All-ones key and message: every 32-bit sum wraps and every product
        // is near 2^64, so carries between lanes and accumulators would show.
        let ones = vec![0xffu8; 3000];
        assert_eq!(check_every_length(&[u32::MAX; KEY_WORDS], &ones, &[0], "all ones"), 3001 * 4);
    }
}
