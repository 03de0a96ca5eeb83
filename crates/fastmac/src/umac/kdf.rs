//! KDF, the key-derivation function of RFC 4418 section 3.2: every key
//! UHASH uses (section 5.1) and the PDF's key (section 3.3) are AES-128
//! (the `aes` crate, AES-NI where the CPU has it) of a counter.

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt};
use zeroize::Zeroize;

/// UMAC key length in bytes: the AES-128 key K the KDF expands.
pub const KEY_LEN: usize = 16;

/// KDF (RFC 4418 section 3.2): `Y = AES_K(uint64(index) || uint64(1)) ||
/// AES_K(uint64(index) || uint64(2)) || ...`, truncated to `out.len()` bytes.
///
/// The output for a shorter `out` is a prefix of the output for a longer one,
/// which is why the four tag lengths share their first iterations' keys.
pub(crate) fn kdf(cipher: &Aes128, index: u64, out: &mut [u8]) {
    let mut chunks = out.chunks_mut(16);
    kdf_blocks(cipher, index, chunks.len(), |_, block| {
        let chunk = chunks.next().expect("one chunk per block");
        chunk.copy_from_slice(&block[..chunk.len()]);
    });
}

/// Blocks encrypted per AES call: the counters are independent, so AES-NI
/// (or VAES) works on several at once.
const BATCH: usize = 8;

/// The first `blocks` 16-byte blocks of [`kdf`]'s output, each handed to
/// `take` with its position, without a buffer for the whole output: a key
/// laid out from them (`super::nh::NhKey`) is written once.
pub(crate) fn kdf_blocks(cipher: &Aes128, index: u64, blocks: usize, mut take: impl FnMut(usize, &[u8; 16])) {
    let mut batch = [Array::from([0u8; 16]); BATCH];
    for first in (0..blocks).step_by(BATCH) {
        let count = BATCH.min(blocks - first);
        for (j, block) in batch[..count].iter_mut().enumerate() {
            block[..8].copy_from_slice(&index.to_be_bytes());
            block[8..].copy_from_slice(&((first + j) as u64 + 1).to_be_bytes());
        }
        cipher.encrypt_blocks(&mut batch[..count]);
        for (j, block) in batch[..count].iter().enumerate() {
            take(first + j, &block.0);
        }
    }
    batch.zeroize();
}
