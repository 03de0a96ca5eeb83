//! PDF, the pad-derivation function of RFC 4418 section 3.3: the pad
//! `AES_K'(Nonce)` that UMAC (section 4) XORs into the UHASH output, with
//! the pad cache that makes counter nonces cost one AES call per [`AHEAD`] blocks.

use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use aes::{Aes128, Aes128Enc};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::kdf::kdf;
use super::nh::prefetch_lines;
use crate::error::Error;

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

/// Pads computed per AES call for a nonce counter: AES-NI pipelines
/// blocks, so 12 blocks cost a few times one block, and the cost of the
/// call is spread over 12 messages (48 for UMAC-32). Three lines of pads:
/// with the bookkeeping line, UMAC-64's whole state fits 2,048 bytes
/// (`docs/performance.md`, "Many live keys").
const AHEAD: usize = 12;

/// AES keyed with the PDF key `K' = KDF(K, 0, 16)` (RFC 4418 section 3.3),
/// the encryption schedule only: the PDF never decrypts, and a key kept
/// per connection is the smaller for it.
pub(crate) fn pdf_cipher(key_cipher: &Aes128) -> Aes128Enc {
    let mut k_prime = [0u8; 16];
    kdf(key_cipher, 0, &mut k_prime);
    let cipher = Aes128Enc::new(&Array::from(k_prime));
    k_prime.zeroize();
    cipher
}

/// PDF (RFC 4418 section 3.3): the pad `AES_K'(Nonce)`, `K' = KDF(K, 0, 16)`.
///
/// For 4- and 8-byte tags the RFC slices one AES block into 4 (or 2) pads,
/// chosen by the nonce's low 2 bits (or 1 bit), which it clears before
/// encrypting. Consecutive counter nonces therefore share a block, as
/// OpenSSH's `pdf_gen_xor` and Nettle's `pad_cache` exploit. This type goes
/// further for counter nonces (the intended use) through its [`PadCache`]:
/// a counter nonce costs one AES call per 12 messages (UMAC-96/128), 24
/// (UMAC-64) or 48 (UMAC-32). Other nonce sequences pay one block per miss.
///
/// The cache first: its bookkeeping and the pad a counter nonce finds are
/// what a message reads; the AES schedule only a refill does.
#[derive(Clone, ZeroizeOnDrop)]
#[repr(C)]
pub(crate) struct Pdf {
    cache: PadCache,
    cipher: Aes128Enc,
}

impl Pdf {
    /// Derives `K' = KDF(K, 0, 16)` and keys AES with it.
    pub(crate) fn new(key_cipher: &Aes128) -> Self {
        Pdf { cipher: pdf_cipher(key_cipher), cache: PadCache::default() }
    }

    /// The pad for `nonce` and a tag of `tag_len` bytes (4, 8, 12 or 16),
    /// as UHASH's output is held (`super::uhash::output_bytes`): its
    /// bytes read big-endian, the bits past `tag_len` bytes to be ignored.
    /// The caller has checked the nonce length.
    #[inline]
    pub(crate) fn pad(&mut self, nonce: &[u8], tag_len: usize) -> u128 {
        let input = PadInput::new(nonce, tag_len);
        input.select(self.cache.pad(&self.cipher, input.block, input.stride))
    }

    /// Asks for the line of the cache's bookkeeping, which [`Pdf::pad`]
    /// reads first, before the message is hashed.
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        prefetch_lines((&raw const self.cache).cast(), 1);
    }

    /// Asks for the cache's lines, its bookkeeping and every pad, without
    /// reading the bookkeeping that says which pad is next.
    #[inline(always)]
    pub(crate) fn prefetch_ahead(&self) {
        prefetch_lines((&raw const self.cache).cast(), size_of::<PadCache>());
    }

    /// [`Pdf::pad`] without the cache: one AES block per call, through a
    /// shared reference (a key tagging from several threads at once).
    #[inline]
    pub(crate) fn pad_uncached(&self, nonce: &[u8], tag_len: usize) -> u128 {
        let input = PadInput::new(nonce, tag_len);
        let mut block = Array::from(input.block.to_be_bytes());
        self.cipher.encrypt_block(&mut block);
        let pad = input.select(&block.0);
        block.zeroize();
        pad
    }
}

/// Where a nonce's pad comes from (RFC 4418 section 3.3): the AES input
/// block, read as a big-endian number, and which slice of the output is
/// the pad.
struct PadInput {
    /// The nonce, zero-padded, its low bits cleared for 4- and 8-byte tags.
    block: u128,
    /// The slice of the AES output that is the pad, in pads of `tag_len`
    /// bytes.
    index: usize,
    /// How far the next counter nonce's block is from this one's.
    stride: u128,
    tag_len: usize,
}

impl PadInput {
    /// The caller has checked the nonce length.
    #[inline(always)]
    fn new(nonce: &[u8], tag_len: usize) -> Self {
        debug_assert!(check_nonce(nonce).is_ok());
        // The nonce is the top `nonce.len()` bytes of the block read as a
        // big-endian u128: its last byte starts at bit `shift`.
        let shift = 8 * (16 - nonce.len());
        let mut block = nonce_block(nonce);
        // RFC: for taglen 4 or 8, index = str2uint(Nonce) mod (16/taglen), and
        // those low bits of the nonce are cleared before it is encrypted.
        let (index, step) = if tag_len <= 8 {
            let low_bits = (16 / tag_len - 1) as u128;
            let index = ((block >> shift) & low_bits) as usize;
            block &= !(low_bits << shift);
            (index, low_bits + 1)
        } else {
            (0, 1)
        };
        // So the next counter nonce's block is `step` higher there.
        PadInput { block, index, stride: step << shift, tag_len }
    }

    /// The pad from the AES output for [`PadInput::block`]: pad `index` is
    /// bytes `index * tag_len..` of it.
    #[inline(always)]
    fn select(&self, aes_output: &[u8; 16]) -> u128 {
        u128::from_be_bytes(*aes_output) << (8 * self.index * self.tag_len)
    }
}

/// The nonce zero-padded to one AES block.
pub(crate) fn padded(nonce: &[u8]) -> [u8; 16] {
    let mut block = [0u8; 16];
    block[..nonce.len()].copy_from_slice(nonce);
    block
}

/// [`padded`] read as a big-endian number, straight from the 8-, 12- and
/// 16-byte nonces that counters and packets use: no copy through memory,
/// which a 16-byte read right after would stall on (store forwarding).
#[inline]
pub(crate) fn nonce_block(nonce: &[u8]) -> u128 {
    let word = |bytes: &[u8]| u64::from_be_bytes(bytes.try_into().expect("8 bytes"));
    match nonce.len() {
        8 => u128::from(word(nonce)) << 64,
        12 => {
            u128::from(word(&nonce[..8])) << 64
                | u128::from(u32::from_be_bytes(nonce[8..].try_into().expect("4 bytes"))) << 32
        }
        16 => u128::from(word(&nonce[..8])) << 64 | u128::from(word(&nonce[8..])),
        _ => u128::from_be_bytes(padded(nonce)),
    }
}

/// The last few AES blocks of the PDF, computed ahead for a nonce counter.
///
/// A nonce block (the padded nonce, read as a big-endian u128) is looked
/// up among the blocks `first + k * stride`, `k < valid`. On a miss right
/// after that run (a counter advancing by `stride`), or on the first use,
/// one AES call encrypts the block and the `AHEAD - 1` blocks after it, so
/// a counter pays one call per `AHEAD` messages. Any other miss (a random
/// nonce, a jump) encrypts that one block only, so a sender of unordered
/// nonces pays no more than without a cache. A cache belongs to one PDF
/// key: the caller passes the same cipher every time.
///
/// Its bookkeeping fills the first 64 bytes, one line; the pads follow,
/// one line per four.
#[derive(Clone, ZeroizeOnDrop)]
#[repr(C)]
pub(crate) struct PadCache {
    /// The block of `pads[0]`. Nonces are public, so comparing against
    /// them leaks nothing.
    #[zeroize(skip)]
    first: u128,
    /// The distance between consecutive entries.
    #[zeroize(skip)]
    stride: u128,
    /// Entries of `pads` in use (0 before the first nonce).
    #[zeroize(skip)]
    valid: usize,
    /// The entry the last nonce used: the next counter nonce uses it or
    /// the one after.
    #[zeroize(skip)]
    last: usize,
    /// The block of entry `last`.
    #[zeroize(skip)]
    last_block: u128,
    pads: [[u8; 16]; AHEAD],
}

impl Default for PadCache {
    fn default() -> Self {
        PadCache { first: 0, stride: 0, valid: 0, last: 0, last_block: 0, pads: [[0; 16]; AHEAD] }
    }
}

impl PadCache {
    /// `AES(block)` under `cipher` (the block as a big-endian number), from
    /// the cache or by a refill.
    #[inline]
    pub(crate) fn pad(&mut self, cipher: &Aes128Enc, block: u128, stride: u128) -> &[u8; 16] {
        // Entries below `valid` never wrapped (see `refill`), so the
        // wrapping arithmetic is exact for them.
        if !(self.last < self.valid && block == self.last_block) {
            if self.last + 1 < self.valid && block == self.last_block.wrapping_add(self.stride) {
                self.last += 1;
            } else {
                let after_run = self.first.wrapping_add(self.stride.wrapping_mul(self.valid as u128));
                let ahead = if self.valid == 0 || (stride == self.stride && block == after_run) { AHEAD } else { 1 };
                self.refill(cipher, block, stride, ahead);
            }
            self.last_block = block;
        }
        &self.pads[self.last]
    }

    /// Encrypts `block` and the blocks after it, `stride` apart, up to
    /// `ahead` or until the counter would wrap around (a carry out of the
    /// u128 is the nonce wrapping).
    #[cold]
    fn refill(&mut self, cipher: &Aes128Enc, block: u128, stride: u128, ahead: usize) {
        self.first = block;
        self.stride = stride;
        self.valid = 0;
        self.last = 0;
        let mut next = Some(block);
        while let (Some(counter), true) = (next, self.valid < ahead) {
            // Encrypted in place below, so no copy of a pad is left to wipe.
            self.pads[self.valid] = counter.to_be_bytes();
            self.valid += 1;
            next = counter.checked_add(stride);
        }
        cipher.encrypt_blocks(Array::cast_slice_from_core_mut(&mut self.pads[..self.valid]));
    }

    /// The block the last refill started at, for the tests.
    #[cfg(test)]
    fn first_block(&self) -> Option<u128> {
        (self.valid > 0).then_some(self.first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prefetched pads equal pads computed one by one, with and
    /// without a cache, for counter, repeated, backwards and wrapping nonce
    /// sequences.
    #[test]
    fn pad_cache_equals_direct_pads() {
        let cipher = Aes128::new(&Array::from(*b"abcdefghijklmnop"));
        for tag_len in [4usize, 8, 12, 16] {
            let mut cached = Pdf::new(&cipher);
            let mut nonces: Vec<Vec<u8>> = (0u64..100).map(|n| n.to_be_bytes().to_vec()).collect();
            nonces.extend([vec![0xff], vec![0xfe], vec![0xff], vec![0x00], vec![0xff; 16], vec![7; 16], vec![7; 3]]);
            nonces.extend((0u64..40).rev().map(|n| (n * 3).to_be_bytes().to_vec()));
            for nonce in &nonces {
                // The pad is the top `tag_len` bytes.
                let ignored = 128 - 8 * tag_len;
                let expect = Pdf::new(&cipher).pad(nonce, tag_len) >> ignored;
                assert_eq!(cached.pad(nonce, tag_len) >> ignored, expect, "tag_len {tag_len} nonce {nonce:02x?}");
                assert_eq!(cached.pad_uncached(nonce, tag_len) >> ignored, expect, "uncached, nonce {nonce:02x?}");
            }
        }
    }

    /// The pad is RFC 4418 section 3.3 word for word: the nonce, for 4- and
    /// 8-byte tags with its low bits (`str2uint(Nonce) mod (16/taglen)`,
    /// the index) cleared, zero-padded to a block and encrypted under
    /// `K' = KDF(K, 0, 16)`; the pad is bytes `index * taglen ..` of it.
    /// Nonces of every length 1 to 16, as the RFC allows.
    #[test]
    fn pads_are_the_rfc_text_for_every_nonce_length() {
        let cipher = Aes128::new(&Array::from(*b"abcdefghijklmnop"));
        let mut k_prime = [0u8; 16];
        kdf(&cipher, 0, &mut k_prime);
        let pdf_aes = Aes128::new(&Array::from(k_prime));
        for len in MIN_NONCE_LEN..=MAX_NONCE_LEN {
            for seed in [0u8, 0x5a, 0xff] {
                let nonce: Vec<u8> = (0..len).map(|i| seed ^ (37u8.wrapping_mul(i as u8) + 1)).collect();
                assert_eq!(nonce_block(&nonce), u128::from_be_bytes(padded(&nonce)), "nonce {nonce:02x?}");
                for tag_len in [4usize, 8, 12, 16] {
                    let mut block = [0u8; 16];
                    block[..len].copy_from_slice(&nonce);
                    let index = if tag_len <= 8 {
                        let index = usize::from(nonce[len - 1]) % (16 / tag_len);
                        block[len - 1] -= index as u8;
                        index
                    } else {
                        0
                    };
                    let mut t = Array::from(block);
                    pdf_aes.encrypt_block(&mut t);
                    let expect = &t[index * tag_len..][..tag_len];
                    let pad = Pdf::new(&cipher).pad(&nonce, tag_len).to_be_bytes();
                    assert_eq!(&pad[..tag_len], expect, "nonce {nonce:02x?}, tag_len {tag_len}");
                }
            }
        }
    }

    #[test]
    fn nonces_of_1_to_16_bytes_are_accepted_and_no_other() {
        for len in 0..=17 {
            let expect =
                if (1..=16).contains(&len) { Ok(()) } else { Err(Error::NonceLength { min: 1, max: 16, got: len }) };
            assert_eq!(check_nonce(&vec![0; len]), expect, "{len} bytes");
        }
    }

    /// Counts the AES refills a run of counter nonces costs: RFC 4418
    /// section 3.3 puts 4 pads per block for UMAC-32 and 2 for UMAC-64, and
    /// each refill encrypts `AHEAD` consecutive blocks.
    #[test]
    fn counter_nonces_cost_one_aes_call_per_block_run() {
        let cipher = Aes128::new(&Array::from(*b"abcdefghijklmnop"));
        for (tag_len, pads_per_block) in [(4usize, 4u64), (8, 2), (12, 1), (16, 1)] {
            let mut pdf = Pdf::new(&cipher);
            let mut refills = 0;
            for n in 0u64..4096 {
                let before = pdf.cache.first_block();
                pdf.pad(&n.to_be_bytes(), tag_len);
                refills += usize::from(pdf.cache.first_block() != before);
            }
            let per_refill = pads_per_block * AHEAD as u64;
            assert_eq!(refills as u64, 4096_u64.div_ceil(per_refill), "tag_len {tag_len}");
        }
    }

    /// A nonce that does not continue the cached run (a jump, a random
    /// nonce) costs one block, not a run of `AHEAD`: unordered nonces pay
    /// no more than without the cache. The counter resumes full runs.
    #[test]
    fn jumps_refill_one_block_and_counters_resume_runs() {
        let cipher = Aes128::new(&Array::from(*b"abcdefghijklmnop"));
        let mut pdf = Pdf::new(&cipher);
        pdf.pad(&0u64.to_be_bytes(), 16);
        assert_eq!(pdf.cache.valid, AHEAD, "the first nonce starts a run");
        for n in [1000u64, 77, 5_000_000, 12] {
            pdf.pad(&n.to_be_bytes(), 16);
            assert_eq!((pdf.cache.valid, pdf.cache.first_block()), (1, Some(u128::from(n) << 64)), "nonce {n}");
        }
        pdf.pad(&13u64.to_be_bytes(), 16);
        assert_eq!(pdf.cache.valid, AHEAD, "the counter after a jump starts a run again");
    }
}
