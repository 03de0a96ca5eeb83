//! NH (RFC 4418 section 5.2.2), the hash at the heart of L1-HASH.
//!
//! This is the seam a faster backend replaces: [`nh_update`] adds the NH sums
//! of whole 32-byte blocks to one accumulator per UHASH iteration. Iteration
//! `i` uses the key shifted by `4 * i` words (the Toeplitz construction of
//! section 5.1), so all iterations are computed in one sweep over the data.

/// Bytes NH consumes per step: eight 32-bit words.
pub(crate) const BLOCK: usize = 32;

/// Adds `NH(K, blocks)` to `acc[i]` for each of the `acc.len()` iterations.
///
/// `key` starts at the word that pairs with the first byte of `blocks` (its
/// offset inside the current 1024-byte L1 chunk, divided by 4) and holds at
/// least `blocks.len() / 4 + 4 * (acc.len() - 1)` words. `blocks` is a whole
/// number of 32-byte blocks. Message words are little-endian (the RFC's
/// ENDIAN-SWAP), key words were read big-endian at key setup.
#[inline]
pub(crate) fn nh_update(key: &[u32], blocks: &[u8], acc: &mut [u64]) {
    debug_assert_eq!(blocks.len() % BLOCK, 0);
    debug_assert!(key.len() >= blocks.len() / 4 + 4 * (acc.len() - 1));
    for (block_index, block) in blocks.chunks_exact(BLOCK).enumerate() {
        let m: [u32; 8] = core::array::from_fn(|j| {
            u32::from_le_bytes(block[4 * j..4 * j + 4].try_into().expect("4-byte word"))
        });
        let words = &key[8 * block_index..];
        for (iteration, sum) in acc.iter_mut().enumerate() {
            let k = &words[4 * iteration..4 * iteration + 8];
            // Word j is paired with word j + 4 within each 32-byte block.
            for j in 0..4 {
                let a = u64::from(m[j].wrapping_add(k[j]));
                let b = u64::from(m[j + 4].wrapping_add(k[j + 4]));
                *sum = sum.wrapping_add(a * b);
            }
        }
    }
}
