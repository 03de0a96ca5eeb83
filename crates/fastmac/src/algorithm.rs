//! Every MAC of the library by name, for callers that choose at run time:
//! the CLI, and the C library's by-name handles (`fastmac_mac_new`).

#[cfg(feature = "alloc")]
use alloc::boxed::Box;

use crate::badger::{self, Badger};
pub use crate::dyn_mac::DynMac;
#[cfg(feature = "hmac")]
use crate::dyn_mac::check_no_nonce;
use crate::error::{Error, UnknownName};
#[cfg(feature = "hmac")]
use crate::hmac::{HashFunction, Hmac};
use crate::umac::{self, TagLen, Umac, UmacTagLen};

/// A MAC algorithm fastmac implements.
///
/// The HMAC variants exist with the cargo feature `hmac` (a default
/// feature). Without it they are compiled out, [`Algorithm::ALL`] lists
/// UMAC and Badger only, and [`Algorithm::from_name`] answers an HMAC name
/// with [`Error::UnknownAlgorithm`], whose message names the feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// UMAC with 4-byte tags (RFC 4418).
    Umac32,
    /// UMAC with 8-byte tags (RFC 4418).
    Umac64,
    /// UMAC with 12-byte tags (RFC 4418).
    Umac96,
    /// UMAC with 16-byte tags (RFC 4418).
    Umac128,
    /// HMAC-MD5 (RFC 2104), 16-byte tags.
    #[cfg(feature = "hmac")]
    HmacMd5,
    /// HMAC-MD5 truncated to 12 bytes (RFC 2403's HMAC-MD5-96).
    #[cfg(feature = "hmac")]
    HmacMd5Trunc96,
    /// HMAC-SHA1, 20-byte tags.
    #[cfg(feature = "hmac")]
    HmacSha1,
    /// HMAC-SHA1 truncated to 12 bytes (RFC 2404's HMAC-SHA-1-96).
    #[cfg(feature = "hmac")]
    HmacSha1Trunc96,
    /// HMAC-RIPEMD160, 20-byte tags.
    #[cfg(feature = "hmac")]
    HmacRipemd160,
    /// HMAC-SHA256, 32-byte tags.
    #[cfg(feature = "hmac")]
    HmacSha256,
    /// HMAC-SHA512, 64-byte tags.
    #[cfg(feature = "hmac")]
    HmacSha512,
    /// Badger, nonce mode, 4-byte tags (one tree).
    Badger32,
    /// Badger, nonce mode, 8-byte tags (two trees).
    Badger64,
    /// Badger, nonce mode, 12-byte tags (three trees).
    Badger96,
    /// Badger, nonce mode, 16-byte tags (four trees).
    Badger128,
    /// Badger, nonce mode, 20-byte tags (five trees).
    Badger160,
}

/// What a caller needs to know to use an algorithm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlgorithmInfo {
    /// The name accepted by [`Algorithm::from_name`].
    pub name: &'static str,
    /// Key length in bytes.
    pub key_len: usize,
    /// Shortest accepted nonce in bytes.
    pub min_nonce_len: usize,
    /// Longest accepted nonce in bytes.
    pub max_nonce_len: usize,
    /// Tag length in bytes.
    pub tag_len: usize,
    /// log2 of the forgery probability per attempt (e.g. -60 means 2^-60).
    pub forgery_bound_log2: f64,
    /// Where the bound comes from.
    pub bound_source: &'static str,
}

impl Algorithm {
    /// Every algorithm, in the order `fastmac list` prints them.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::Umac32,
        Algorithm::Umac64,
        Algorithm::Umac96,
        Algorithm::Umac128,
        #[cfg(feature = "hmac")]
        Algorithm::HmacMd5,
        #[cfg(feature = "hmac")]
        Algorithm::HmacMd5Trunc96,
        #[cfg(feature = "hmac")]
        Algorithm::HmacSha1,
        #[cfg(feature = "hmac")]
        Algorithm::HmacSha1Trunc96,
        #[cfg(feature = "hmac")]
        Algorithm::HmacRipemd160,
        #[cfg(feature = "hmac")]
        Algorithm::HmacSha256,
        #[cfg(feature = "hmac")]
        Algorithm::HmacSha512,
        Algorithm::Badger32,
        Algorithm::Badger64,
        Algorithm::Badger96,
        Algorithm::Badger128,
        Algorithm::Badger160,
    ];

    /// Looks an algorithm up by name (`umac-64`, ...), ignoring ASCII case.
    pub fn from_name(name: &str) -> Result<Algorithm, Error> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|alg| alg.info().name.eq_ignore_ascii_case(name))
            .ok_or_else(|| Error::UnknownAlgorithm(UnknownName::new(name)))
    }

    /// Lengths, bound and name.
    pub fn info(self) -> AlgorithmInfo {
        let umac = |name, tag_len: usize| AlgorithmInfo {
            name,
            key_len: umac::KEY_LEN,
            min_nonce_len: umac::MIN_NONCE_LEN,
            max_nonce_len: umac::MAX_NONCE_LEN,
            tag_len,
            // RFC 4418 section 1: about 2^-30 per 32 bits of tag.
            forgery_bound_log2: -30.0 * (tag_len / 4) as f64,
            bound_source: "RFC 4418 section 1",
        };
        // HMAC has no nonce; its key may have any length, the hash output
        // length being RFC 2104 section 3's recommendation.
        #[cfg(feature = "hmac")]
        let hmac = |name, hash: HashFunction, tag_len: usize| AlgorithmInfo {
            name,
            key_len: hash.output_len(),
            min_nonce_len: 0,
            max_nonce_len: 0,
            tag_len,
            // Guessing a t-bit tag, which holds while HMAC is a PRF: it is
            // if the compression function is (Bellare, CRYPTO 2006), an
            // assumption much weaker for MD5 and SHA-1 than for SHA-2.
            forgery_bound_log2: -8.0 * tag_len as f64,
            bound_source: "tag guessing, if the compression function is a PRF: Bellare 2006",
        };
        let badger = |name, tag_len: usize| AlgorithmInfo {
            name,
            key_len: badger::KEY_LEN,
            min_nonce_len: badger::NONCE_LEN,
            max_nonce_len: badger::NONCE_LEN,
            tag_len,
            // Worst case, messages up to 2^61 - 1 bytes: 2^-26.12 per tree.
            // Shorter limits give table 2's bounds (badger::forgery_bound_log2).
            forgery_bound_log2: libm::round(badger::forgery_bound_log2(tag_len / 4, (1 << 61) - 1) * 100.0) / 100.0,
            bound_source: "Badger paper section 6 at 2^61-1 B; 2^-31 per tree up to 8 B, table 2 for limits",
        };
        match self {
            Algorithm::Badger32 => badger("badger-32", 4),
            Algorithm::Badger64 => badger("badger-64", 8),
            Algorithm::Badger96 => badger("badger-96", 12),
            Algorithm::Badger128 => badger("badger-128", 16),
            Algorithm::Badger160 => badger("badger-160", 20),
            Algorithm::Umac32 => umac("umac-32", 4),
            Algorithm::Umac64 => umac("umac-64", 8),
            Algorithm::Umac96 => umac("umac-96", 12),
            Algorithm::Umac128 => umac("umac-128", 16),
            #[cfg(feature = "hmac")]
            Algorithm::HmacMd5 => hmac("hmac-md5", HashFunction::Md5, 16),
            #[cfg(feature = "hmac")]
            Algorithm::HmacMd5Trunc96 => hmac("hmac-md5-96", HashFunction::Md5, 12),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha1 => hmac("hmac-sha1", HashFunction::Sha1, 20),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha1Trunc96 => hmac("hmac-sha1-96", HashFunction::Sha1, 12),
            #[cfg(feature = "hmac")]
            Algorithm::HmacRipemd160 => hmac("hmac-ripemd160", HashFunction::Ripemd160, 20),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha256 => hmac("hmac-sha2-256", HashFunction::Sha256, 32),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha512 => hmac("hmac-sha2-512", HashFunction::Sha512, 64),
        }
    }

    /// A keyed, streaming MAC object of this algorithm (feature `alloc`,
    /// on with `std`).
    #[cfg(feature = "alloc")]
    pub fn new_mac(self, key: &[u8]) -> Result<Box<dyn DynMac>, Error> {
        let tag_len = self.info().tag_len;
        Ok(match self {
            Algorithm::Umac32 | Algorithm::Umac64 | Algorithm::Umac96 | Algorithm::Umac128 => {
                umac::AnyUmac::new_from_slice(key, tag_len)?.into_dyn_mac()
            }
            #[cfg(feature = "hmac")]
            Algorithm::HmacMd5 => Box::new(Hmac::new(HashFunction::Md5, key)),
            #[cfg(feature = "hmac")]
            Algorithm::HmacMd5Trunc96 => Box::new(Hmac::new_truncated(HashFunction::Md5, key, tag_len)?),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha1 => Box::new(Hmac::new(HashFunction::Sha1, key)),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha1Trunc96 => Box::new(Hmac::new_truncated(HashFunction::Sha1, key, tag_len)?),
            #[cfg(feature = "hmac")]
            Algorithm::HmacRipemd160 => Box::new(Hmac::new(HashFunction::Ripemd160, key)),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha256 => Box::new(Hmac::new(HashFunction::Sha256, key)),
            #[cfg(feature = "hmac")]
            Algorithm::HmacSha512 => Box::new(Hmac::new(HashFunction::Sha512, key)),
            Algorithm::Badger32
            | Algorithm::Badger64
            | Algorithm::Badger96
            | Algorithm::Badger128
            | Algorithm::Badger160 => badger::AnyBadger::new(key, tag_len, badger::MAX_LEVELS)?.into_dyn_mac(),
        })
    }
}

impl<const TAG_LEN: usize> DynMac for Umac<TAG_LEN>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn update(&mut self, data: &[u8]) {
        Umac::update(self, data);
    }

    fn finalize_reset_into(&mut self, nonce: &[u8], tag: &mut [u8]) -> Result<(), Error> {
        if tag.len() != TAG_LEN {
            return Err(Error::TagLength { expected: TAG_LEN, got: tag.len() });
        }
        tag.copy_from_slice(&Umac::finalize_reset(self, nonce)?);
        Ok(())
    }

    fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        Umac::verify_reset(self, nonce, tag)
    }

    fn reset(&mut self) {
        Umac::reset(self);
    }

    #[cfg(feature = "parallel")]
    fn update_from_file(&mut self, file: &mut std::fs::File, threads: core::num::NonZeroUsize) -> std::io::Result<u64> {
        Umac::update_from_file(self, file, threads)
    }
}

/// HMAC takes no nonce: only an empty one is accepted.
#[cfg(feature = "hmac")]
impl DynMac for Hmac {
    fn tag_len(&self) -> usize {
        Hmac::tag_len(self)
    }

    fn update(&mut self, data: &[u8]) {
        Hmac::update(self, data);
    }

    fn finalize_reset_into(&mut self, nonce: &[u8], tag: &mut [u8]) -> Result<(), Error> {
        check_no_nonce(nonce)?;
        Hmac::finalize_reset_into(self, tag)
    }

    fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_no_nonce(nonce)?;
        Hmac::verify_reset(self, tag)
    }

    fn reset(&mut self) {
        Hmac::reset(self);
    }
}

impl<const TAG_LEN: usize> DynMac for Badger<TAG_LEN> {
    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn update(&mut self, data: &[u8]) {
        Badger::update(self, data);
    }

    fn finalize_reset_into(&mut self, nonce: &[u8], tag: &mut [u8]) -> Result<(), Error> {
        if tag.len() != TAG_LEN {
            return Err(Error::TagLength { expected: TAG_LEN, got: tag.len() });
        }
        tag.copy_from_slice(&Badger::finalize_reset(self, nonce)?);
        Ok(())
    }

    fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        Badger::verify_reset(self, nonce, tag)
    }

    fn reset(&mut self) {
        Badger::reset(self);
    }
}
