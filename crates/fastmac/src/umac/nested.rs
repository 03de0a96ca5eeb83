//! Nested UMAC: one UMAC-128 key whose tag prefixes are verified at any
//! depth (docs/umac.md section 3.5, built on the facts of sections 3.2 and 3.3).
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
//! (docs/umac.md section 3.4).

use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use aes::{Aes128, Aes128Enc};
use zeroize::Zeroize;

use super::backend::Backend;
use super::iters::{MAX_ITERS, iters_for, with_iters};
use super::kdf::KEY_LEN;
use super::pdf::{PadCache, check_nonce, nonce_block, padded, pdf_cipher};
use super::uhash::{UhashKey, uhash};
use crate::error::Error;
use crate::tag::verify_tag;

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
    /// The keys of all four iterations, L1Key laid out for four.
    key: UhashKey<MAX_ITERS>,
    /// The same keys with L1Key in the other layout, where the NH kernels
    /// of fewer iterations read that one (`nh/key.rs`); `None` where the
    /// four-iteration layout serves every depth.
    narrow: Option<UhashKey<MAX_ITERS>>,
    /// AES keyed with `K' = KDF(K, 0, 16)`, the PDF key (RFC 4418 section 3.3).
    pad_cipher: Aes128Enc,
}

impl NestedUmac {
    /// Expands a 16-byte UMAC key for all four iterations.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        let mut key_bytes = Array::from(*key);
        let cipher = Aes128::new(&key_bytes);
        key_bytes.zeroize();
        let backend = Backend::detect();
        let key = UhashKey::derive(&cipher, backend);
        let narrow = (!(1..MAX_ITERS).all(|iters| key.serves(iters)))
            .then(|| UhashKey::derive_laid_out_for(&cipher, 1, backend));
        debug_assert!(
            (1..=MAX_ITERS).all(|iters| key.serves(iters) || narrow.as_ref().is_some_and(|n| n.serves(iters)))
        );
        NestedUmac { key, narrow, pad_cipher: pdf_cipher(&cipher) }
    }

    /// The keys to hash `iters` iterations with: the ones whose L1Key
    /// layout the NH kernels of that count read.
    #[inline]
    fn key_for(&self, iters: usize) -> &UhashKey<MAX_ITERS> {
        match &self.narrow {
            Some(narrow) if !self.key.serves(iters) => narrow,
            _ => &self.key,
        }
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
        check_prefix_len(out.len())?;
        let mut pad = self.pad_block(nonce);
        let mut field = self.field_prefix(&pad, msg, out.len());
        pad.zeroize();
        out.copy_from_slice(&field.to_le_bytes()[..out.len()]);
        field.zeroize();
        Ok(())
    }

    /// [`NestedUmac::prefix_into`] with the pad taken from `pads`, which
    /// computes 12 pads per AES call for a nonce counter.
    #[inline]
    pub fn prefix_into_cached(
        &self,
        pads: &mut NestedPads,
        nonce: &[u8],
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        check_nonce(nonce)?;
        check_prefix_len(out.len())?;
        let pad = pads.cache.pad(&self.pad_cipher, nonce_block(nonce), pads.stride);
        let mut field = self.field_prefix(pad, msg, out.len());
        out.copy_from_slice(&field.to_le_bytes()[..out.len()]);
        field.zeroize();
        Ok(())
    }

    /// Checks a tag prefix of 1 to 16 bytes in constant time.
    pub fn verify_prefix(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_nonce(nonce)?;
        check_prefix_len(tag.len())?;
        let mut pad = self.pad_block(nonce);
        let mut expected = self.field_prefix(&pad, msg, tag.len());
        pad.zeroize();
        verify_tag(&mut expected, &le_word(tag))
    }

    /// [`NestedUmac::verify_prefix`] with the pad taken from `pads`.
    pub fn verify_prefix_cached(
        &self,
        pads: &mut NestedPads,
        nonce: &[u8],
        msg: &[u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        check_nonce(nonce)?;
        check_prefix_len(tag.len())?;
        let pad = pads.cache.pad(&self.pad_cipher, nonce_block(nonce), pads.stride);
        // One 128-bit comparison, not one per byte, on the receiver's hot path.
        verify_tag(&mut self.field_prefix(pad, msg, tag.len()), &le_word(tag))
    }

    /// The first `len` bytes (1 to 16) of the field, zeros after them, as
    /// a little-endian number (byte `i` of the field is bits `8i..8i+8`):
    /// `UHASH(msg)` with `ceil(len / 4)` iterations XORed with the pad.
    /// Kept in a register, not a byte array, from here to the comparison.
    #[inline]
    fn field_prefix(&self, pad: &[u8; 16], msg: &[u8], len: usize) -> u128 {
        debug_assert!((1..=FIELD_LEN).contains(&len));
        // The field's bytes are UHASH's output read big-endian: read
        // little-endian, that number byte-swapped.
        let iters = iters_for(len);
        let hash = with_iters!(iters, ITERS => uhash::<ITERS, MAX_ITERS>(self.key_for(iters), msg)).swap_bytes();
        let mask = u128::MAX >> (8 * (FIELD_LEN - len));
        (hash ^ u128::from_le_bytes(*pad)) & mask
    }

    /// `AES_K'(nonce padded with zeros)`: the 16-byte PDF block of RFC 4418
    /// section 3.3 for taglen 16, used whole at every depth.
    fn pad_block(&self, nonce: &[u8]) -> [u8; 16] {
        let mut block = Array::from(padded(nonce));
        self.pad_cipher.encrypt_block(&mut block);
        let mut pad = [0u8; 16];
        pad.copy_from_slice(&block);
        block.zeroize();
        pad
    }
}

/// Pads of one [`NestedUmac`] key computed ahead for a stream of counter
/// nonces: a sender's packets, or one sender's packets at a receiver.
///
/// The nonce, zero-padded to 16 bytes and read as a big-endian 128-bit
/// number, is expected to advance by `stride` per message; reaching the
/// end of the cached run encrypts the next 12 blocks of that counter in one
/// AES call, so in-order traffic pays one AES call per 12 messages. Any
/// other order is still correct (a miss costs one block). Use a cache with
/// one key only: it holds that key's pads (and wipes them on drop).
#[derive(Clone)]
pub struct NestedPads {
    cache: PadCache,
    stride: u128,
}

impl NestedPads {
    /// An empty cache for nonces that advance by `stride`; for a plain
    /// `n`-byte counter nonce, `stride` is `1 << (8 * (16 - n))`.
    pub fn new(stride: u128) -> Self {
        NestedPads { cache: PadCache::default(), stride }
    }
}

impl core::fmt::Debug for NestedPads {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "NestedPads {{ stride: {:#x}, .. }}", self.stride)
    }
}

fn check_prefix_len(len: usize) -> Result<(), Error> {
    if (1..=FIELD_LEN).contains(&len) { Ok(()) } else { Err(Error::TagLength { expected: FIELD_LEN, got: len }) }
}

/// `tag` (1 to 16 bytes) zero-extended and read as a little-endian number,
/// straight from the 4-, 8-, 12- and 16-byte tags of the levels (no copy
/// through memory, which a wide read right after would stall on).
#[inline]
fn le_word(tag: &[u8]) -> u128 {
    let u32_at = |i: usize| u128::from(u32::from_le_bytes(tag[i..i + 4].try_into().expect("4 bytes")));
    let u64_at = |i: usize| u128::from(u64::from_le_bytes(tag[i..i + 8].try_into().expect("8 bytes")));
    match tag.len() {
        4 => u32_at(0),
        8 => u64_at(0),
        12 => u64_at(0) | u32_at(8) << 64,
        16 => u64_at(0) | u64_at(8) << 64,
        _ => {
            let mut bytes = [0u8; FIELD_LEN];
            bytes[..tag.len()].copy_from_slice(tag);
            u128::from_le_bytes(bytes)
        }
    }
}

impl core::fmt::Debug for NestedUmac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("NestedUmac { .. }")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::umac::Umac128;

    /// Every depth hashes with the keys whose L1Key layout its NH kernels
    /// read (on a CPU whose kernels of fewer iterations read another layout
    /// than four's, a key taken from the wrong side gives another hash):
    /// each prefix is the start of the field, and the field is UMAC-128's
    /// tag through portable NH, at lengths within a block, a chunk, two
    /// chunks and more.
    #[test]
    fn every_depth_gives_the_start_of_the_portable_umac128_tag() {
        let key = *b"abcdefghijklmnop";
        let nested = NestedUmac::new(&key);
        let mut portable = Umac128::with_backend(&key, Backend::Portable).expect("portable NH runs everywhere");
        let msg: Vec<u8> = (0..3100u32).map(|i| (i * 31 + 7) as u8).collect();
        for len in [0, 1, 31, 32, 33, 100, 500, 1024, 1025, 2048, 2049, 3100] {
            let field = nested.field(b"bcdefghi", &msg[..len]).unwrap();
            assert_eq!(field, portable.mac(b"bcdefghi", &msg[..len]).unwrap(), "{len} bytes");
            for depth in 1..=MAX_ITERS {
                let mut prefix = [0u8; FIELD_LEN];
                nested.prefix_into(b"bcdefghi", &msg[..len], &mut prefix[..4 * depth]).unwrap();
                assert_eq!(prefix[..4 * depth], field[..4 * depth], "{len} bytes, depth {depth}");
            }
        }
    }
}
