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
    for (i, chunk) in out.chunks_mut(16).enumerate() {
        let mut block = Array::from([0u8; 16]);
        block[..8].copy_from_slice(&index.to_be_bytes());
        block[8..].copy_from_slice(&(i as u64 + 1).to_be_bytes());
        cipher.encrypt_block(&mut block);
        chunk.copy_from_slice(&block[..chunk.len()]);
        block.zeroize();
    }
}
