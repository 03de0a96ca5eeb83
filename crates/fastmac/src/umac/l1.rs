//! L1-HASH (RFC 4418 section 5.2.1): the message cut into 1024-byte chunks,
//! each chunk NH-hashed (section 5.2.2, in [`super::nh`]) after being
//! zero-padded to whole 32-byte blocks, plus the chunk's length in bits.
//! One 64-bit output per chunk and iteration; the Toeplitz iterations share
//! one key, shifted by 16 bytes each (section 5.1).

use aes::Aes128;

use super::backend::Backend;
use super::kdf::kdf_blocks;
use super::nh::{self, ChunkRun, NhKey};

/// L1-HASH chunk: 1024 bytes of message, NH's 32 blocks.
pub(crate) const L1_CHUNK: usize = nh::CHUNK_BYTES;

/// `L1Key = KDF(K, 1, 1024 + (iters - 1) * 16)` (section 5.1), read as
/// big-endian words (section 5.2.2) and laid out for `backend`, which the
/// caller checked is supported, and the kernels of `layout_iters`
/// iterations (at most `iters`).
pub(crate) fn l1_key(cipher: &Aes128, iters: usize, layout_iters: usize, backend: Backend) -> NhKey {
    debug_assert!(layout_iters <= iters);
    let mut key = NhKey::zero(backend, layout_iters);
    // Each KDF block is one quad of four words, set where the layout keeps
    // it: no copy of the key's bytes or words to wipe afterwards.
    kdf_blocks(cipher, 1, (L1_CHUNK + 16 * (iters - 1)) / 16, |q, block| {
        key.set_quad(
            q,
            core::array::from_fn(|i| u32::from_be_bytes(block[4 * i..4 * i + 4].try_into().expect("4 bytes"))),
        );
    });
    key
}

/// One L1-HASH output from a chunk's NH sum: `NH(chunk) +_64
/// uint2str(bitlength(chunk), 8)`, the length in bytes before padding.
#[inline(always)]
pub(crate) fn add_bit_length(nh: u64, chunk_len: usize) -> u64 {
    nh.wrapping_add(8 * chunk_len as u64)
}

/// L1-HASH of one chunk (at most 1024 bytes) for `ITERS` iterations: the
/// chunk zero-padded to whole 32-byte blocks (the backend pads a partial
/// last block without a copy), the empty chunk as one block of zeros. NH
/// adds into its accumulators, so starting them at the length term gives
/// the outputs with no addition after the call (and the caller reads back
/// words of the width the backend stored, which a vector add over them
/// would not: a store-forwarding stall per chunk).
#[inline(always)]
pub(crate) fn l1_hash<const ITERS: usize>(key: &NhKey, chunk: &[u8]) -> [u64; ITERS] {
    debug_assert!(chunk.len() <= L1_CHUNK);
    let data = if chunk.is_empty() { &[0u8; nh::BLOCK][..] } else { chunk };
    key.sums::<ITERS, 0>(0, data, [add_bit_length(0, chunk.len()); ITERS])
}

/// L1-HASH of whole chunks, none of them a message's last (which may be
/// shorter), as the outputs L2-HASH absorbs: NH of each chunk from its
/// length term, a run at a time where the backend takes one
/// ([`ChunkRun`]).
#[inline(always)]
pub(crate) fn l1_chunks<'a>(key: &'a NhKey, chunks: &'a [[u8; L1_CHUNK]]) -> ChunkRun<'a> {
    ChunkRun::new(key, chunks, add_bit_length(0, L1_CHUNK))
}

#[cfg(test)]
mod tests {
    use aes::cipher::{Array, KeyInit};

    use super::*;
    use crate::umac::iters::MAX_ITERS;
    use crate::umac::kdf::kdf;

    /// `L1Key = KDF(K, 1, 1024 + (iters - 1) * 16)` (RFC 4418 section 5.1),
    /// restated from the text: each iteration's key reaches 16 bytes further
    /// into the KDF's output, so a whole chunk (the one input that reads a
    /// key's last words) hashes under all of it, at every iteration count.
    #[test]
    fn l1_key_is_the_kdf_output_of_the_rfc_length() {
        let cipher = Aes128::new(&Array::from(*b"abcdefghijklmnop"));
        let chunk: [u8; L1_CHUNK] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let mut bytes = [0u8; 4 * nh::KEY_WORDS];
        kdf(&cipher, 1, &mut bytes[..L1_CHUNK + 16 * (MAX_ITERS - 1)]);
        let words = core::array::from_fn(|i| u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()));
        let expected = NhKey::new(&words, Backend::Portable, MAX_ITERS);
        // Iteration i of `iters` reads key bytes 16 * i .. 16 * i + 1024.
        let keyed = |iters| l1_key(&cipher, iters, iters, Backend::Portable);
        assert_eq!(l1_hash::<1>(&keyed(1), &chunk), l1_hash::<1>(&expected, &chunk));
        assert_eq!(l1_hash::<2>(&keyed(2), &chunk), l1_hash::<2>(&expected, &chunk));
        assert_eq!(l1_hash::<3>(&keyed(3), &chunk), l1_hash::<3>(&expected, &chunk));
        assert_eq!(l1_hash::<4>(&keyed(4), &chunk), l1_hash::<4>(&expected, &chunk));
    }
}
