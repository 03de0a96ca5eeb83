//! UMAC with its tag length chosen at run time, for bindings and tools that
//! take it as a parameter (a Python `digest_size`, a C `tag_len`, OpenSSH's
//! two widths behind one context type).

use super::kdf::KEY_LEN;
use super::mac::{Umac32, Umac64, Umac96, Umac128};
use super::nh::Backend;
use crate::algorithm::DynMac;
use crate::error::Error;

/// UMAC's tag lengths in bytes: UMAC-32, -64, -96 and -128 (RFC 4418
/// section 4).
pub const TAG_LENS: [usize; 4] = [4, 8, 12, 16];

/// A UMAC tag of one of the [`TAG_LENS`], held inline.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UmacTag {
    bytes: [u8; 16],
    len: usize,
}

impl UmacTag {
    /// The tag's bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl<const N: usize> From<[u8; N]> for UmacTag {
    fn from(tag: [u8; N]) -> UmacTag {
        let mut bytes = [0u8; 16];
        bytes[..N].copy_from_slice(&tag);
        UmacTag { bytes, len: N }
    }
}

impl AsRef<[u8]> for UmacTag {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

/// A [`Umac`](super::mac::Umac) whose tag length (4, 8, 12 or 16 bytes) is a
/// run-time value; every method forwards to the UMAC of that length.
///
/// ```
/// use fastmac::umac::{AnyUmac, Umac64};
///
/// let key = b"abcdefghijklmnop";
/// let mut mac = AnyUmac::new(key, 8)?;
/// let tag = mac.mac(b"bcdefghi", b"abc")?;
/// assert_eq!(tag.as_slice(), Umac64::new(key).mac(b"bcdefghi", b"abc")?);
/// assert!(AnyUmac::new(key, 10).is_err());
/// # Ok::<(), fastmac::Error>(())
/// ```
#[derive(Clone)]
pub struct AnyUmac(Inner);

#[derive(Clone)]
enum Inner {
    U32(Umac32),
    U64(Umac64),
    U96(Umac96),
    U128(Umac128),
}

/// Runs `$body` with `$m` bound to the UMAC of the object's tag length.
macro_rules! dispatch {
    ($any:expr, $m:ident => $body:expr) => {
        match $any {
            Inner::U32($m) => $body,
            Inner::U64($m) => $body,
            Inner::U96($m) => $body,
            Inner::U128($m) => $body,
        }
    };
}

impl AnyUmac {
    /// Expands `key` for `tag_len`-byte tags; a tag length that is not one
    /// of [`TAG_LENS`] is [`Error::UnsupportedTagLength`].
    pub fn new(key: &[u8; KEY_LEN], tag_len: usize) -> Result<Self, Error> {
        Ok(AnyUmac(match tag_len {
            4 => Inner::U32(Umac32::new(key)),
            8 => Inner::U64(Umac64::new(key)),
            12 => Inner::U96(Umac96::new(key)),
            16 => Inner::U128(Umac128::new(key)),
            got => return Err(Error::UnsupportedTagLength { supported: &TAG_LENS, got }),
        }))
    }

    /// Like [`AnyUmac::new`], for a key of unchecked length; the tag length
    /// is checked first.
    pub fn new_from_slice(key: &[u8], tag_len: usize) -> Result<Self, Error> {
        if !TAG_LENS.contains(&tag_len) {
            return Err(Error::UnsupportedTagLength { supported: &TAG_LENS, got: tag_len });
        }
        let key: &[u8; KEY_LEN] = key.try_into().map_err(|_| Error::KeyLength { expected: KEY_LEN, got: key.len() })?;
        Self::new(key, tag_len)
    }

    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        match self.0 {
            Inner::U32(_) => 4,
            Inner::U64(_) => 8,
            Inner::U96(_) => 12,
            Inner::U128(_) => 16,
        }
    }

    /// The NH backend this object hashes with.
    pub fn backend(&self) -> Backend {
        dispatch!(&self.0, m => m.backend())
    }

    /// See [`Umac::mac`](super::mac::Umac::mac).
    pub fn mac(&mut self, nonce: &[u8], msg: &[u8]) -> Result<UmacTag, Error> {
        dispatch!(&mut self.0, m => m.mac(nonce, msg).map(UmacTag::from))
    }

    /// See [`Umac::verify`](super::mac::Umac::verify).
    pub fn verify(&mut self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.verify(nonce, msg, tag))
    }

    /// See [`Umac::update`](super::mac::Umac::update).
    pub fn update(&mut self, data: &[u8]) {
        dispatch!(&mut self.0, m => m.update(data))
    }

    /// See [`Umac::finalize_reset`](super::mac::Umac::finalize_reset).
    pub fn finalize_reset(&mut self, nonce: &[u8]) -> Result<UmacTag, Error> {
        dispatch!(&mut self.0, m => m.finalize_reset(nonce).map(UmacTag::from))
    }

    /// See [`Umac::verify_reset`](super::mac::Umac::verify_reset).
    pub fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.verify_reset(nonce, tag))
    }

    /// See [`Umac::reset`](super::mac::Umac::reset).
    pub fn reset(&mut self) {
        dispatch!(&mut self.0, m => m.reset())
    }
}

impl DynMac for AnyUmac {
    fn tag_len(&self) -> usize {
        AnyUmac::tag_len(self)
    }

    fn update(&mut self, data: &[u8]) {
        AnyUmac::update(self, data);
    }

    fn finalize_reset_into(&mut self, nonce: &[u8], tag: &mut [u8]) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.finalize_reset_into(nonce, tag))
    }

    fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        AnyUmac::verify_reset(self, nonce, tag)
    }

    fn reset(&mut self) {
        AnyUmac::reset(self);
    }

    #[cfg(feature = "parallel")]
    fn update_from_file(&mut self, file: &mut std::fs::File, threads: core::num::NonZeroUsize) -> std::io::Result<u64> {
        dispatch!(&mut self.0, m => m.update_from_file(file, threads))
    }
}

impl core::fmt::Debug for AnyUmac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "AnyUmac {{ tag_bits: {}, .. }}", 8 * self.tag_len())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Umac;
    use super::*;

    const KEY: &[u8; 16] = b"abcdefghijklmnop";

    fn same_as_fixed<const N: usize>() {
        let mut any = AnyUmac::new(KEY, N).unwrap();
        let mut fixed = Umac::<N>::new(KEY);
        assert_eq!(any.tag_len(), N);
        let tag = any.mac(b"nonce", b"message").unwrap();
        assert_eq!(tag.as_slice(), fixed.mac(b"nonce", b"message").unwrap());
        any.verify(b"nonce", b"message", tag.as_ref()).unwrap();
        any.update(b"mess");
        any.update(b"age");
        assert_eq!(any.finalize_reset(b"nonce").unwrap(), tag);
        any.update(b"message");
        any.verify_reset(b"nonce", tag.as_slice()).unwrap();
        any.update(b"discarded");
        any.reset();
        let mut out = vec![0u8; N];
        DynMac::update(&mut any, b"message");
        any.finalize_reset_into(b"nonce", &mut out).unwrap();
        assert_eq!(out, tag.as_slice());
    }

    #[test]
    fn every_tag_length_equals_the_fixed_type() {
        same_as_fixed::<4>();
        same_as_fixed::<8>();
        same_as_fixed::<12>();
        same_as_fixed::<16>();
    }

    #[test]
    fn other_lengths_are_typed_errors() {
        for got in [0, 1, 5, 10, 17, 32, usize::MAX] {
            let err = Error::UnsupportedTagLength { supported: &TAG_LENS, got };
            assert_eq!(AnyUmac::new(KEY, got).unwrap_err(), err);
            assert_eq!(AnyUmac::new_from_slice(b"short", got).unwrap_err(), err, "tag length checked first");
        }
        assert_eq!(AnyUmac::new_from_slice(b"short", 8).unwrap_err(), Error::KeyLength { expected: 16, got: 5 });
        let mut mac = AnyUmac::new(KEY, 8).unwrap();
        assert_eq!(mac.verify(b"n", b"m", &[0; 4]), Err(Error::TagLength { expected: 8, got: 4 }));
        assert_eq!(
            Error::UnsupportedTagLength { supported: &TAG_LENS, got: 10 }.to_string(),
            "unsupported tag length: expected 4, 8, 12 or 16 bytes, got 10"
        );
    }
}
