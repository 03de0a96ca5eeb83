//! Nested UMAC: one UMAC-128 key whose tag prefixes are verified at any
//! depth (umac.md section 3.5, built on the facts of sections 3.2 and 3.3).
//!
//! The 16-byte field is the RFC 4418 UMAC-128 tag
//! `UHASH-128(M) xor AES_K'(Nonce)`. Because the KDF is prefix-consistent,
//! its first `4j` bytes are `UHASH-32j(M) xor AES_K'(Nonce)[0..4j]`, so a
//! verifier at depth `j` computes only `j` UHASH iterations plus one AES
//! block.
//!
//! The pad is always the whole AES block of the nonce, never the sliced
//! pads of RFC UMAC-32/64 (RFC 4418 section 3.3, index = nonce mod 4 or 2):
//! this type has no code path that computes them, which is what keeps a
//! key used for 4-, 8-, 12- and 16-byte checks from reusing pad bytes
//! (umac.md section 3.4).

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::kdf::{check_nonce, kdf};
use super::uhash::{MAX_ITERS, UhashKey, UhashState};
use super::{Backend, KEY_LEN};
use crate::Error;

/// Longest prefix: the whole UMAC-128 field.
pub const FIELD_LEN: usize = 16;

/// A UMAC-128 key that computes or checks any prefix of its 16-byte tag
/// with only the UHASH iterations that prefix needs.
///
/// ```
/// use fastmac::umac::{NestedUmac, Umac128};
///
/// let key = b"abcdefghijklmnop";
/// let nested = NestedUmac::new(key);
/// let field = nested.field(b"bcdefghi", b"abc")?;
/// assert_eq!(field, Umac128::new(key).mac(b"bcdefghi", b"abc")?);
/// // A depth-2 receiver checks the first 8 bytes with 2 iterations.
/// nested.verify_prefix(b"bcdefghi", b"abc", &field[..8])?;
/// # Ok::<(), fastmac::Error>(())
/// ```
#[derive(Clone)]
pub struct NestedUmac {
    key: UhashKey,
    /// AES keyed with `K' = KDF(K, 0, 16)`, the PDF key (RFC 4418 section 3.3).
    pad_cipher: Aes128,
}

impl NestedUmac {
    /// Expands a 16-byte UMAC key for all four iterations.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        let mut key_bytes = Array::from(*key);
        let cipher = Aes128::new(&key_bytes);
        key_bytes.zeroize();
        let mut k_prime = [0u8; 16];
        kdf(&cipher, 0, &mut k_prime);
        let pad_cipher = Aes128::new(&Array::from(k_prime));
        k_prime.zeroize();
        // The NH backend the CPU supports, as for Umac::new.
        NestedUmac { key: UhashKey::derive(&cipher, MAX_ITERS, Backend::detect()), pad_cipher }
    }

    /// The whole 16-byte field: exactly the RFC 4418 UMAC-128 tag.
    pub fn field(&self, nonce: &[u8], msg: &[u8]) -> Result<[u8; FIELD_LEN], Error> {
        let mut out = [0u8; FIELD_LEN];
        self.prefix_into(nonce, msg, &mut out)?;
        Ok(out)
    }

    /// Writes the first `out.len()` bytes (1 to 16) of the field, computing
    /// `ceil(out.len() / 4)` UHASH iterations only.
    pub fn prefix_into(&self, nonce: &[u8], msg: &[u8], out: &mut [u8]) -> Result<(), Error> {
        check_nonce(nonce)?;
        if !(1..=FIELD_LEN).contains(&out.len()) {
            return Err(Error::TagLength { expected: FIELD_LEN, got: out.len() });
        }
        let iters = out.len().div_ceil(4);
        let mut hash = [0u8; FIELD_LEN];
        let mut state = UhashState::default();
        state.update(&self.key, iters, msg);
        state.finalize(&self.key, iters, &mut hash[..4 * iters]);
        let mut pad = self.pad_block(nonce);
        for ((o, h), p) in out.iter_mut().zip(&hash).zip(&pad) {
            *o = h ^ p;
        }
        hash.zeroize();
        pad.zeroize();
        Ok(())
    }

    /// Checks a tag prefix of 1 to 16 bytes in constant time.
    pub fn verify_prefix(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        let mut expected = [0u8; FIELD_LEN];
        let len = tag.len();
        if !(1..=FIELD_LEN).contains(&len) {
            return Err(Error::TagLength { expected: FIELD_LEN, got: len });
        }
        self.prefix_into(nonce, msg, &mut expected[..len])?;
        let equal: bool = expected[..len].ct_eq(tag).into();
        expected.zeroize();
        if equal { Ok(()) } else { Err(Error::InvalidTag) }
    }

    /// `AES_K'(nonce padded with zeros)`: the 16-byte PDF block of RFC 4418
    /// section 3.3 for taglen 16, used whole at every depth.
    fn pad_block(&self, nonce: &[u8]) -> [u8; 16] {
        let mut block = Array::from([0u8; 16]);
        block[..nonce.len()].copy_from_slice(nonce);
        self.pad_cipher.encrypt_block(&mut block);
        let mut pad = [0u8; 16];
        pad.copy_from_slice(&block);
        block.zeroize();
        pad
    }
}

impl core::fmt::Debug for NestedUmac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("NestedUmac { .. }")
    }
}
