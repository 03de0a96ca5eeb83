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

/// Pads computed per AES call: one 8-block call costs about as much as a
/// single block (AES-NI pipelines, VAES does 4 blocks per instruction).
const AHEAD: usize = 8;

/// PDF (RFC 4418 section 3.3): the pad `AES_K'(Nonce)`, `K' = KDF(K, 0, 16)`.
///
/// For 4- and 8-byte tags the RFC slices one AES block into 4 (or 2) pads,
/// chosen by the nonce's low 2 bits (or 1 bit), which it clears before
/// encrypting. Consecutive counter nonces therefore share a block, as
/// OpenSSH's `pdf_gen_xor` and Nettle's `pad_cache` exploit. This type goes
/// further for counter nonces (the intended use): on a miss it encrypts the
/// nonce block and the next `AHEAD - 1` counter blocks in one call, so a
/// counter nonce costs one AES call per 8 messages (UMAC-96/128), 16
/// (UMAC-64) or 32 (UMAC-32). Other nonce sequences pay one call per miss.
#[derive(Clone, ZeroizeOnDrop)]
pub(crate) struct Pdf {
    cipher: Aes128,
    /// The nonce blocks (low bits cleared) whose encryptions `pads` holds.
    /// Nonces are public, so comparing against them leaks nothing.
    #[zeroize(skip)]
    blocks: [[u8; 16]; AHEAD],
    /// Entries of `blocks` and `pads` in use (0 before the first nonce).
    #[zeroize(skip)]
    valid: usize,
    /// The entry the last nonce used: the next counter nonce uses it or
    /// the one after.
    #[zeroize(skip)]
    last: usize,
    pads: [[u8; 16]; AHEAD],
}

impl Pdf {
    /// Derives `K' = KDF(K, 0, 16)` and keys AES with it.
    pub(crate) fn new(key_cipher: &Aes128) -> Self {
        let mut k_prime = [0u8; 16];
        kdf(key_cipher, 0, &mut k_prime);
        let cipher = Aes128::new(&Array::from(k_prime));
        k_prime.zeroize();
        Pdf { cipher, blocks: [[0; 16]; AHEAD], valid: 0, last: 0, pads: [[0; 16]; AHEAD] }
    }

    /// XORs the pad for `nonce` into `tag` (4, 8, 12 or 16 bytes).
    /// The caller has checked the nonce length.
    #[inline]
    pub(crate) fn xor_pad(&mut self, nonce: &[u8], tag: &mut [u8]) {
        debug_assert!(check_nonce(nonce).is_ok());
        let tag_len = tag.len();
        let mut block = [0u8; 16];
        block[..nonce.len()].copy_from_slice(nonce);
        // RFC: for taglen 4 or 8, index = str2uint(Nonce) mod (16/taglen), and
        // those low bits of the nonce are cleared before it is encrypted.
        let (index, step) = if tag_len <= 8 {
            let low_bits = (16 / tag_len - 1) as u8;
            let last = nonce.len() - 1;
            let index = usize::from(block[last] & low_bits);
            block[last] &= !low_bits;
            (index, low_bits + 1)
        } else {
            (0, 1)
        };
        let entry = if self.last < self.valid && self.blocks[self.last] == block {
            self.last
        } else if self.last + 1 < self.valid && self.blocks[self.last + 1] == block {
            self.last + 1
        } else {
            self.refill(block, nonce.len(), step);
            0
        };
        self.last = entry;
        let pad = &self.pads[entry][index * tag_len..][..tag_len];
        for (t, p) in tag.iter_mut().zip(pad) {
            *t ^= p;
        }
    }

    /// Encrypts `block` and the counter blocks after it (the nonce, of
    /// `nonce_len` bytes, read as a big-endian number plus `step`), up to
    /// `AHEAD` or until the nonce would wrap around.
    #[cold]
    fn refill(&mut self, block: [u8; 16], nonce_len: usize, step: u8) {
        // The nonce is the top `nonce_len` bytes of the block read as a
        // big-endian u128, so adding `step` there adds it to the nonce, and
        // a carry out of the u128 is the nonce wrapping around.
        let increment = u128::from(step) << (8 * (16 - nonce_len));
        let mut counter = u128::from_be_bytes(block);
        self.blocks[0] = block;
        self.valid = 1;
        while self.valid < AHEAD {
            match counter.checked_add(increment) {
                Some(next) => counter = next,
                None => break,
            }
            self.blocks[self.valid] = counter.to_be_bytes();
            self.valid += 1;
        }
        // Encrypted in place, so no copy of a pad is left to wipe.
        self.pads[..self.valid].copy_from_slice(&self.blocks[..self.valid]);
        self.cipher.encrypt_blocks(Array::cast_slice_from_core_mut(&mut self.pads[..self.valid]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prefetched pads equal pads computed one by one, for counter,
    /// repeated, backwards and wrapping nonce sequences.
    #[test]
    fn pad_cache_equals_direct_pads() {
        let cipher = Aes128::new(&Array::from(*b"abcdefghijklmnop"));
        for tag_len in [4usize, 8, 12, 16] {
            let mut cached = Pdf::new(&cipher);
            let mut nonces: Vec<Vec<u8>> = (0u64..100).map(|n| n.to_be_bytes().to_vec()).collect();
            nonces.extend([vec![0xff], vec![0xfe], vec![0xff], vec![0x00], vec![0xff; 16], vec![7; 16], vec![7; 3]]);
            nonces.extend((0u64..40).rev().map(|n| (n * 3).to_be_bytes().to_vec()));
            for nonce in &nonces {
                let mut direct = Pdf::new(&cipher);
                let mut expect = vec![0u8; tag_len];
                direct.xor_pad(nonce, &mut expect);
                let mut got = vec![0u8; tag_len];
                cached.xor_pad(nonce, &mut got);
                assert_eq!(got, expect, "tag_len {tag_len} nonce {nonce:02x?}");
            }
        }
    }


    fn pdf() -> Pdf {
        Pdf::new(&Aes128::new(&Array::from(*b"abcdefghijklmnop")))
    }

    /// Runs `nonces` through a fresh PDF and counts the AES blocks
    /// encrypted: each refill encrypts `valid` blocks.
    fn aes_blocks(tag_len: usize, nonces: impl Iterator<Item = u64>) -> usize {
        let mut pdf = pdf();
        let mut blocks = 0;
        for n in nonces {
            let before = (pdf.blocks[0], pdf.valid);
            pdf.xor_pad(&n.to_be_bytes(), &mut vec![0; tag_len]);
            if (pdf.blocks[0], pdf.valid) != before {
                blocks += pdf.valid;
            }
        }
        blocks
    }

    #[test]
    fn counter_nonces_share_aes_blocks() {
        // RFC 4418 section 3.3: 4 pads per block for UMAC-32, 2 for UMAC-64;
        // the prefetch encrypts at most AHEAD - 1 blocks beyond those used.
        for (tag_len, used) in [(4, 100), (8, 200), (16, 400)] {
            let blocks = aes_blocks(tag_len, 0..400);
            assert!((used..used + AHEAD).contains(&blocks), "tag_len {tag_len}: {blocks} AES blocks");
        }
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
