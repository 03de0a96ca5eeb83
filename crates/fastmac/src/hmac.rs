//! HMAC (RFC 2104) over MD5, SHA-1, RIPEMD-160, SHA-256 and SHA-512, with
//! optional truncation (the `-96` forms of RFC 2404 and SSH).
//!
//! These are the baselines UMAC is measured against and the HMACs of SSH
//! (RFC 4253 section 6.4, RFC 6668). The HMAC construction and the hashes
//! are RustCrypto's `hmac`, `md-5`, `sha1`, `ripemd` and `sha2`; this module
//! only chooses among them at run time, truncates, and verifies in constant
//! time.
//!
//! ```
//! use fastmac::hmac::{HashFunction, Hmac};
//!
//! // RFC 4231 test case 2.
//! let mut mac = Hmac::new(HashFunction::Sha256, b"Jefe");
//! mac.update(b"what do ya want for nothing?");
//! let mut tag = [0u8; 32];
//! mac.finalize_reset_into(&mut tag)?;
//! assert_eq!(tag[..4], [0x5b, 0xdc, 0xc1, 0x46]);
//! mac.update(b"what do ya want for nothing?");
//! mac.verify_reset(&tag)?; // constant time
//! # Ok::<(), fastmac::Error>(())
//! ```
//!
//! The keyed object is built once: the inner and outer padded key blocks
//! are hashed at construction, and every message after that costs only its
//! own compression calls plus two (the reuse OpenSSH adopted in 2007).

use hmac::HmacReset;
use hmac::digest::{FixedOutputReset, KeyInit, Reset, Update};
use zeroize::Zeroize;

use crate::error::Error;
use crate::tag::verify_tag;

/// The longest HMAC output here (SHA-512), in bytes.
pub const MAX_TAG_LEN: usize = 64;

/// The hash function under an HMAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashFunction {
    /// MD5 (RFC 1321); HMAC-MD5 is RFC 2104's example and RFC 2202's.
    Md5,
    /// SHA-1 (FIPS 180-4).
    Sha1,
    /// RIPEMD-160.
    Ripemd160,
    /// SHA-256 (FIPS 180-4).
    Sha256,
    /// SHA-512 (FIPS 180-4).
    Sha512,
}

impl HashFunction {
    /// The hash's output length in bytes (the untruncated HMAC tag).
    pub const fn output_len(self) -> usize {
        match self {
            HashFunction::Md5 => 16,
            HashFunction::Sha1 | HashFunction::Ripemd160 => 20,
            HashFunction::Sha256 => 32,
            HashFunction::Sha512 => 64,
        }
    }

    /// The shortest truncation accepted: 80 bits, RFC 2104 section 5's
    /// floor. (Its other advice, at least half the output, is not enforced:
    /// RFC 4231 section 4.6 itself truncates HMAC-SHA-512 to 128 bits.)
    pub const fn min_tag_len(self) -> usize {
        10
    }
}

/// A keyed HMAC whose hash is chosen at run time, producing `tag_len`-byte
/// tags (the leftmost bytes of the HMAC output, RFC 2104 section 5).
///
/// Methods take `&mut self` because the object keeps a streaming state next
/// to the keyed one; every `finalize`/`verify` resets to the keyed state.
#[derive(Clone)]
pub struct Hmac {
    state: State,
    tag_len: usize,
}

/// The RustCrypto HMAC of each hash. `HmacReset` keeps the keyed initial
/// state, so a reset costs a copy rather than two compressions.
#[derive(Clone)]
enum State {
    Md5(HmacReset<md5::Md5>),
    Sha1(HmacReset<sha1::Sha1>),
    Ripemd160(HmacReset<ripemd::Ripemd160>),
    Sha256(HmacReset<sha2::Sha256>),
    Sha512(HmacReset<sha2::Sha512>),
}

/// Runs `$body` with `$m` bound to the concrete HMAC, whatever the hash.
macro_rules! with_state {
    ($state:expr, $m:ident => $body:expr) => {
        match $state {
            State::Md5($m) => $body,
            State::Sha1($m) => $body,
            State::Ripemd160($m) => $body,
            State::Sha256($m) => $body,
            State::Sha512($m) => $body,
        }
    };
}

fn keyed<M: KeyInit>(key: &[u8]) -> M {
    // HMAC takes keys of any length (RFC 2104 section 2: longer keys are
    // hashed first), so RustCrypto's `new_from_slice` cannot fail here.
    M::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC accepts keys of every length"))
}

impl Hmac {
    /// An HMAC with full-length tags. Keys of any length are accepted
    /// (RFC 2104 section 3 recommends at least the hash's output length).
    pub fn new(hash: HashFunction, key: &[u8]) -> Hmac {
        let state = match hash {
            HashFunction::Md5 => State::Md5(keyed(key)),
            HashFunction::Sha1 => State::Sha1(keyed(key)),
            HashFunction::Ripemd160 => State::Ripemd160(keyed(key)),
            HashFunction::Sha256 => State::Sha256(keyed(key)),
            HashFunction::Sha512 => State::Sha512(keyed(key)),
        };
        Hmac { state, tag_len: hash.output_len() }
    }

    /// An HMAC whose tags are truncated to `tag_len` bytes, between
    /// [`HashFunction::min_tag_len`] and [`HashFunction::output_len`].
    pub fn new_truncated(hash: HashFunction, key: &[u8], tag_len: usize) -> Result<Hmac, Error> {
        if !(hash.min_tag_len()..=hash.output_len()).contains(&tag_len) {
            return Err(Error::TagLength { expected: hash.output_len(), got: tag_len });
        }
        let mut mac = Hmac::new(hash, key);
        mac.tag_len = tag_len;
        Ok(mac)
    }

    /// The hash under this HMAC.
    pub fn hash(&self) -> HashFunction {
        match self.state {
            State::Md5(_) => HashFunction::Md5,
            State::Sha1(_) => HashFunction::Sha1,
            State::Ripemd160(_) => HashFunction::Ripemd160,
            State::Sha256(_) => HashFunction::Sha256,
            State::Sha512(_) => HashFunction::Sha512,
        }
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// Streams more of the message.
    pub fn update(&mut self, data: &[u8]) {
        with_state!(&mut self.state, m => Update::update(m, data));
    }

    /// Writes the (truncated) tag of the streamed message into `tag`, which
    /// must be exactly [`Hmac::tag_len`] bytes, and resets to the keyed state.
    pub fn finalize_reset_into(&mut self, tag: &mut [u8]) -> Result<(), Error> {
        if tag.len() != self.tag_len {
            return Err(Error::TagLength { expected: self.tag_len, got: tag.len() });
        }
        with_state!(&mut self.state, m => {
            let mut full = m.finalize_fixed_reset();
            tag.copy_from_slice(&full[..tag.len()]);
            full.as_mut_slice().zeroize();
        });
        Ok(())
    }

    /// Checks `tag` against the streamed message in constant time, and
    /// resets to the keyed state. A tag of the wrong length is refused
    /// before anything is consumed (as UMAC and Badger do), so the streamed
    /// message can still be verified.
    pub fn verify_reset(&mut self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != self.tag_len {
            return Err(Error::TagLength { expected: self.tag_len, got: tag.len() });
        }
        let mut expected = [0u8; MAX_TAG_LEN];
        let expected = &mut expected[..self.tag_len];
        self.finalize_reset_into(expected)?;
        verify_tag(expected, tag)
    }

    /// Discards streamed input, keeping the key.
    pub fn reset(&mut self) {
        with_state!(&mut self.state, m => Reset::reset(m));
    }
}

impl core::fmt::Debug for Hmac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hmac").field("hash", &self.hash()).field("tag_len", &self.tag_len).finish_non_exhaustive()
    }
}
