//! The experimental partial-MAC gears S-L (docs/gears.md sections 2.3 and 6.2):
//! a MAC over the header and a keyed, per-packet, stratified sample of the
//! payload, one 64-bit word from each region of `L` words (the "one part
//! per region" variant of US 6,976,168).
//!
//! **This is not a MAC of the payload.** Its strength is a detection
//! probability: a change confined to `w` distinct regions escapes with
//! probability `(1 - 1/L)^w` (plus the 2^-60 forgery bound of the 8-byte
//! tag), so a single changed word is caught only with probability `1/L`.
//! It is off unless a receiver enables it, and never for control packets.
//! The sampled positions are secret, but which words are read depends on
//! them, so a cache-timing observer of the receiver can learn them; that
//! is inherent to reading only part of the payload and another reason it
//! stays experimental.
//!
//! Construction (ours, ACSA's exact one is unknown, docs/gears.md section 6.10):
//! offsets come from AES-CTR under `K_select` on `nonce || BE32(block)`;
//! the tag is the 8-byte prefix of a UMAC-128 field under `K_mac` (whole
//! block pads, see [`fastmac::umac::NestedUmac`]) over `header || words`.

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use zeroize::Zeroize;

use crate::SampleRate;
use fastmac::Error;
use fastmac::umac::NestedUmac;

/// Bytes per sampled word.
const WORD: usize = 8;
/// Sample tag length.
pub const SAMPLE_TAG_LEN: usize = 8;

/// The keys of the partial-MAC gears.
#[derive(Clone)]
pub(crate) struct Sampler {
    mac: NestedUmac,
    select: Aes128,
}

impl Sampler {
    /// `key` = `K_mac (16 bytes) || K_select (16 bytes)`.
    pub(crate) fn new(key: &[u8; 32]) -> Self {
        let mut k_mac = [0u8; 16];
        k_mac.copy_from_slice(&key[..16]);
        let mut k_select = Array::from([0u8; 16]);
        k_select.copy_from_slice(&key[16..]);
        let sampler = Sampler { mac: NestedUmac::new(&k_mac), select: Aes128::new(&k_select) };
        k_mac.zeroize();
        k_select.zeroize();
        sampler
    }

    /// The header followed by the sampled words: the MAC input.
    fn sampled(&self, rate: SampleRate, nonce: &[u8], header: &[u8], payload: &[u8]) -> Vec<u8> {
        let l = rate.words_per_region();
        let words = payload.len().div_ceil(WORD);
        let regions = words.div_ceil(l);
        let mut input = Vec::with_capacity(header.len() + regions * WORD);
        input.extend_from_slice(header);
        let mut stream = OffsetStream::new(&self.select, nonce);
        for region in 0..regions {
            let first = region * l;
            let len = l.min(words - first);
            // Exact for whole regions (L divides 2^16); the last, partial
            // region has a bias below len / 2^16.
            let offset = (usize::from(stream.next()) * len) >> 16;
            let start = (first + offset) * WORD;
            let mut word = [0u8; WORD];
            let end = (start + WORD).min(payload.len());
            word[..end - start].copy_from_slice(&payload[start..end]);
            input.extend_from_slice(&word);
        }
        input
    }

    pub(crate) fn tag(&self, rate: SampleRate, nonce: &[u8], header: &[u8], payload: &[u8]) -> [u8; 8] {
        let mut input = self.sampled(rate, nonce, header, payload);
        let mut tag = [0u8; SAMPLE_TAG_LEN];
        self.mac.prefix_into(nonce, &input, &mut tag).expect("gear nonces are 8 or 12 bytes");
        input.zeroize();
        tag
    }

    pub(crate) fn verify(
        &self,
        rate: SampleRate,
        nonce: &[u8],
        header: &[u8],
        payload: &[u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        if tag.len() != SAMPLE_TAG_LEN {
            return Err(Error::TagLength { expected: SAMPLE_TAG_LEN, got: tag.len() });
        }
        let mut input = self.sampled(rate, nonce, header, payload);
        let result = self.mac.verify_prefix(nonce, &input, tag);
        input.zeroize();
        result
    }
}

/// 16-bit pseudorandom values from AES-CTR on `nonce || BE32(counter)`.
struct OffsetStream<'a> {
    cipher: &'a Aes128,
    nonce: [u8; 12],
    counter: u32,
    block: [u8; 16],
    used: usize,
}

impl<'a> OffsetStream<'a> {
    fn new(cipher: &'a Aes128, nonce: &[u8]) -> Self {
        let mut padded = [0u8; 12];
        let n = nonce.len().min(12);
        padded[..n].copy_from_slice(&nonce[..n]);
        OffsetStream { cipher, nonce: padded, counter: 0, block: [0; 16], used: 16 }
    }

    fn next(&mut self) -> u16 {
        if self.used == 16 {
            let mut input = Array::from([0u8; 16]);
            input[..12].copy_from_slice(&self.nonce);
            input[12..].copy_from_slice(&self.counter.to_be_bytes());
            self.cipher.encrypt_block(&mut input);
            self.block.copy_from_slice(&input);
            input.zeroize();
            self.counter += 1;
            self.used = 0;
        }
        let value = u16::from_be_bytes([self.block[self.used], self.block[self.used + 1]]);
        self.used += 2;
        value
    }
}

impl Drop for OffsetStream<'_> {
    fn drop(&mut self) {
        self.block.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sampler() -> Sampler {
        Sampler::new(&[3u8; 32])
    }

    #[test]
    fn round_trip_and_header_is_covered() {
        let s = sampler();
        let payload = vec![0xabu8; 1500];
        let nonce = [1u8; 12];
        let tag = s.tag(SampleRate::L8, &nonce, b"header", &payload);
        assert!(s.verify(SampleRate::L8, &nonce, b"header", &payload, &tag).is_ok());
        assert_eq!(s.verify(SampleRate::L8, &nonce, b"headex", &payload, &tag), Err(Error::InvalidTag));
    }

    #[test]
    fn single_word_change_is_caught_about_one_time_in_l() {
        // Change word 0 under 4000 nonces: S-8 must catch it about 1/8 of
        // the time (binomial mean 500, sd 21; accept 400..600).
        let s = sampler();
        let payload = vec![0u8; 64 * 8];
        let mut changed = payload.clone();
        changed[0] ^= 1;
        let caught = (0u32..4000)
            .filter(|i| {
                let mut nonce = [0u8; 12];
                nonce[..4].copy_from_slice(&i.to_be_bytes());
                let tag = s.tag(SampleRate::L8, &nonce, b"h", &payload);
                s.verify(SampleRate::L8, &nonce, b"h", &changed, &tag).is_err()
            })
            .count();
        assert!((400..600).contains(&caught), "caught {caught} of 4000");
    }

    #[test]
    fn whole_payload_change_is_caught() {
        let s = sampler();
        let payload = vec![0u8; 1500];
        let changed = vec![1u8; 1500];
        for i in 0u8..50 {
            let nonce = [i; 12];
            let tag = s.tag(SampleRate::L64, &nonce, b"h", &payload);
            assert!(s.verify(SampleRate::L64, &nonce, b"h", &changed, &tag).is_err());
        }
    }
}
