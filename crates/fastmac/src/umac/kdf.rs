//! RFC 4418 section 3: the key-derivation function (KDF) and the
//! pad-derivation function (PDF), both built on AES-128 (the `aes` crate,
//! which uses AES-NI where the CPU has it).

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;

/// Shortest nonce RFC 4418 accepts, in bytes.
pub const MIN_NONCE_LEN: usize = 1;
/// Longest nonce RFC 4418 accepts (one AES block), in bytes.
pub const MAX_NONCE_LEN: usize = 16;

/// Checks a nonce length against RFC 4418's 1..=16 bytes.
pub(crate) fn check_nonce(nonce: &[u8]) -> Result<(), Error> {
    if (MIN_NONCE_LEN..=MAX_NONCE_LEN).contains(&nonce.len()) {
        Ok(())
    } else {
        Err(Error::NonceLength { min: MIN_NONCE_LEN, max: MAX_NONCE_LEN, got: nonce.len() })
    }
}

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

/// PDF (RFC 4418 section 3.3): the pad `AES_K'(Nonce)`, `K' = KDF(K, 0, 16)`.
///
/// For 4- and 8-byte tags the RFC slices one AES block into 4 (or 2) pads,
/// chosen by the nonce's low 2 bits (or 1 bit), which it clears before
/// encrypting. Consecutive counter nonces therefore share a block, and this
/// type keeps the last block so a counter nonce costs one AES call per 4 (or
/// 2) messages, as OpenSSH's `pdf_gen_xor` and Nettle's `pad_cache` do.
#[derive(Clone, ZeroizeOnDrop)]
pub(crate) struct Pdf {
    cipher: Aes128,
    /// The nonce block (low bits cleared) whose encryption `cached_pad` holds.
    /// Nonces are public, so comparing against it leaks nothing.
    #[zeroize(skip)]
    cached_nonce: Option<[u8; 16]>,
    cached_pad: [u8; 16],
}

impl Pdf {
    /// Derives `K' = KDF(K, 0, 16)` and keys AES with it.
    pub(crate) fn new(key_cipher: &Aes128) -> Self {
        let mut k_prime = [0u8; 16];
        kdf(key_cipher, 0, &mut k_prime);
        let cipher = Aes128::new(&Array::from(k_prime));
        k_prime.zeroize();
        Pdf { cipher, cached_nonce: None, cached_pad: [0; 16] }
    }

    /// XORs the pad for `nonce` into `tag` (4, 8, 12 or 16 bytes).
    /// The caller has checked the nonce length.
    pub(crate) fn xor_pad(&mut self, nonce: &[u8], tag: &mut [u8]) {
        debug_assert!(check_nonce(nonce).is_ok());
        let tag_len = tag.len();
        let mut block = [0u8; 16];
        block[..nonce.len()].copy_from_slice(nonce);
        // RFC: for taglen 4 or 8, index = str2uint(Nonce) mod (16/taglen), and
        // those low bits of the nonce are cleared before it is encrypted.
        let index = if tag_len <= 8 {
            let low_bits = (16 / tag_len - 1) as u8;
            let last = nonce.len() - 1;
            let index = usize::from(block[last] & low_bits);
            block[last] &= !low_bits;
            index
        } else {
            0
        };
        if self.cached_nonce != Some(block) {
            let mut pad = Array::from(block);
            self.cipher.encrypt_block(&mut pad);
            self.cached_pad.copy_from_slice(&pad);
            pad.zeroize();
            self.cached_nonce = Some(block);
        }
        let pad = &self.cached_pad[index * tag_len..][..tag_len];
        for (t, p) in tag.iter_mut().zip(pad) {
            *t ^= p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pdf() -> Pdf {
        Pdf::new(&Aes128::new(&Array::from(*b"abcdefghijklmnop")))
    }

    /// Runs `nonces` through a fresh PDF and counts the AES calls made,
    /// i.e. the times the cached block changed.
    fn aes_calls(tag_len: usize, nonces: impl Iterator<Item = u64>) -> usize {
        let mut pdf = pdf();
        let mut calls = 0;
        for n in nonces {
            let before = pdf.cached_nonce;
            pdf.xor_pad(&n.to_be_bytes(), &mut vec![0; tag_len]);
            calls += usize::from(pdf.cached_nonce != before);
        }
        calls
    }

    #[test]
    fn counter_nonces_share_aes_blocks() {
        // RFC 4418 section 3.3: 4 pads per block for UMAC-32, 2 for UMAC-64.
        assert_eq!(aes_calls(4, 0..400), 100);
        assert_eq!(aes_calls(8, 0..400), 200);
        assert_eq!(aes_calls(16, 0..400), 400);
    }

    #[test]
    fn cached_pads_equal_fresh_pads() {
        let mut cached = pdf();
        for n in 0u64..64 {
            let nonce = n.to_be_bytes();
            for tag_len in [4, 8, 12, 16] {
                let (mut a, mut b) = (vec![0; tag_len], vec![0; tag_len]);
                cached.xor_pad(&nonce, &mut a);
                pdf().xor_pad(&nonce, &mut b);
                assert_eq!(a, b, "nonce {n} tag {tag_len}");
            }
        }
    }
}
