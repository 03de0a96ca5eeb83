//! NH as RFC 4418 section 5.2.2 writes it: the specification every SIMD
//! backend is tested against, and the fallback on any CPU.

use super::block::{BLOCK, split_tail};
use super::key::NhKey;

/// Adds `NH(K, data)` to `acc[t]` for each iteration `t` (see
/// [`NhKey::sums`]).
pub(super) fn nh<const T: usize>(key: &NhKey, first_block: usize, data: &[u8], acc: &mut [u64; T]) {
    let (blocks, tail) = split_tail(data);
    let mut index = first_block;
    for block in blocks.chunks_exact(BLOCK) {
        nh_block(&key.words()[8 * index..], block, acc);
        index += 1;
    }
    if let Some(tail) = tail {
        nh_block(&key.words()[8 * index..], &tail, acc);
    }
}

/// One 32-byte block, all iterations. Message words are little-endian (the
/// RFC's ENDIAN-SWAP); key words were read big-endian at key setup.
#[inline(always)]
fn nh_block<const T: usize>(words: &[u32], block: &[u8], acc: &mut [u64; T]) {
    let m: [u32; 8] =
        core::array::from_fn(|j| u32::from_le_bytes(block[4 * j..4 * j + 4].try_into().expect("4-byte word")));
    for (t, sum) in acc.iter_mut().enumerate() {
        // Toeplitz: iteration t starts 4 words (16 bytes) further on.
        let k = &words[4 * t..4 * t + 8];
        // Word j is paired with word j + 4 within each 32-byte block.
        for j in 0..4 {
            let a = u64::from(m[j].wrapping_add(k[j]));
            let b = u64::from(m[j + 4].wrapping_add(k[j + 4]));
            *sum = sum.wrapping_add(a * b);
        }
    }
}
