//! UMAC with its tag length chosen at run time, for bindings and tools that
//! take it as a parameter (a Python `digest_size`, a C `tag_len`, OpenSSH's
//! two widths behind one context type): [`AnyUmac`], and [`AnySequencedUmac`]
//! for the nonce-owning form. The tag length becomes a type here only
//! (`by_tag_len!`, from crates/fastmac/src/by_tag_len.rs).

use super::backend::Backend;
use super::kdf::KEY_LEN;
use super::mac::{Umac32, Umac64, Umac96, Umac128};
use super::sequenced::SequencedUmac;
use crate::dyn_mac::DynMac;
use crate::error::Error;
use crate::nonce::NonceCounter;
use crate::tag::InlineTag;

/// UMAC's tag lengths in bytes: UMAC-32, -64, -96 and -128 (RFC 4418
/// section 4).
pub const TAG_LENS: [usize; 4] = [4, 8, 12, 16];

/// A UMAC tag of one of the [`TAG_LENS`], held inline.
pub type UmacTag = InlineTag<16>;

crate::by_tag_len::by_tag_len_types!($ U32(T4) = 4, U64(T8) = 8, U96(T12) = 12, U128(T16) = 16);

/// A key of the length UMAC takes.
fn umac_key(key: &[u8]) -> Result<&[u8; KEY_LEN], Error> {
    key.try_into().map_err(|_| Error::KeyLength { expected: KEY_LEN, got: key.len() })
}

/// A [`Umac`](super::mac::Umac) whose tag length (4, 8, 12 or 16 bytes) is
/// a run-time value; every method forwards to the UMAC of that length.
///
/// ```
/// use fastmac::umac::{AnyUmac, TagLen, Umac64, UmacTagLen};
///
/// let key = b"abcdefghijklmnop";
/// let mut mac = AnyUmac::new(key, 8)?;
/// let tag = mac.mac(b"bcdefghi", b"abc")?;
/// assert_eq!(tag.as_slice(), Umac64::new(key).mac(b"bcdefghi", b"abc")?);
/// assert!(AnyUmac::new(key, 10).is_err());
/// # Ok::<(), fastmac::Error>(())
/// ```
#[derive(Clone)]
pub struct AnyUmac(ByTagLen<Umac32, Umac64, Umac96, Umac128>);

impl AnyUmac {
    /// Expands `key` for `tag_len`-byte tags; a tag length that is not one
    /// of [`TAG_LENS`] is [`Error::UnsupportedTagLength`].
    pub fn new(key: &[u8; KEY_LEN], tag_len: usize) -> Result<Self, Error> {
        Ok(AnyUmac(by_tag_len!(tag_len, N => super::mac::Umac::<N>::new(key))))
    }

    /// Like [`AnyUmac::new`], for a key of unchecked length; the tag length
    /// is checked first.
    pub fn new_from_slice(key: &[u8], tag_len: usize) -> Result<Self, Error> {
        if !TAG_LENS.contains(&tag_len) {
            return Err(Error::UnsupportedTagLength { supported: &TAG_LENS, got: tag_len });
        }
        Self::new(umac_key(key)?, tag_len)
    }

    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.0.tag_len()
    }

    /// The UMAC inside, boxed as a [`DynMac`] ([`crate::Algorithm::new_mac`]):
    /// the box holds the UMAC of the tag length itself, so that its calls
    /// take no further dispatch.
    #[cfg(feature = "alloc")]
    pub(crate) fn into_dyn_mac(self) -> alloc::boxed::Box<dyn DynMac> {
        dispatch!(self.0, m => alloc::boxed::Box::new(m))
    }

    /// The UMAC inside when its tags are `N` bytes long, for a caller that
    /// works with one tag length as a type (OpenSSH's two widths behind one
    /// context type): no further dispatch per call.
    pub fn as_fixed_mut<const N: usize>(&mut self) -> Option<&mut super::mac::Umac<N>>
    where
        super::mac::TagLen<N>: super::mac::UmacTagLen,
    {
        dispatch!(&mut self.0, m => (m as &mut dyn core::any::Any).downcast_mut::<super::mac::Umac<N>>())
    }

    /// The NH backend this object hashes with.
    pub fn backend(&self) -> Backend {
        dispatch!(&self.0, m => m.backend())
    }

    /// [`Umac::mac`](super::mac::Umac::mac) into `out`, which has the tag
    /// length (the SSH MACs, whose packets are MACed here one per call):
    /// inlined into the caller, so that each length's UMAC is inlined with
    /// the caller's nonce as it is through the typed API.
    #[inline(always)]
    pub(crate) fn mac_into(&mut self, nonce: &[u8], msg: &[u8], out: &mut [u8]) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.mac(nonce, msg).map(|tag| out.copy_from_slice(&tag)))
    }

    /// See [`Umac::mac`](super::mac::Umac::mac).
    pub fn mac(&mut self, nonce: &[u8], msg: &[u8]) -> Result<UmacTag, Error> {
        dispatch!(&mut self.0, m => m.mac(nonce, msg).map(UmacTag::from))
    }

    /// See [`Umac::verify`](super::mac::Umac::verify).
    pub fn verify(&mut self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.verify(nonce, msg, tag))
    }

    /// See [`Umac::mac_shared`](super::mac::Umac::mac_shared): through a
    /// shared reference, for one key used by several threads.
    pub fn mac_shared(&self, nonce: &[u8], msg: &[u8]) -> Result<UmacTag, Error> {
        dispatch!(&self.0, m => m.mac_shared(nonce, msg).map(UmacTag::from))
    }

    /// See [`Umac::verify_shared`](super::mac::Umac::verify_shared).
    pub fn verify_shared(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        dispatch!(&self.0, m => m.verify_shared(nonce, msg, tag))
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

/// A [`SequencedUmac`] whose tag length (4, 8, 12 or 16 bytes) is a run-time
/// value: UMAC that owns its counter nonces (see [`SequencedUmac`]).
///
/// ```
/// use fastmac::umac::{AnySequencedUmac, Umac128, counter_nonce};
///
/// let key = b"abcdefghijklmnop";
/// let mut sender = AnySequencedUmac::new(key, 16)?;
/// let (nonce, tag) = sender.tag(b"first message")?;
/// Umac128::new(key).verify(&counter_nonce(nonce), b"first message", tag.as_slice())?;
/// # Ok::<(), fastmac::Error>(())
/// ```
pub struct AnySequencedUmac(ByTagLen<SequencedUmac<4>, SequencedUmac<8>, SequencedUmac<12>, SequencedUmac<16>>);

impl AnySequencedUmac {
    /// Keys UMAC for `tag_len`-byte tags; nonces count from 0 and stop below
    /// 2^64 - 1. A key of another length than 16 bytes, or a tag length not
    /// in [`TAG_LENS`], is an error (the tag length checked first).
    pub fn new(key: &[u8], tag_len: usize) -> Result<Self, Error> {
        Self::with_counter(key, tag_len, NonceCounter::new(u64::MAX))
    }

    /// Like [`AnySequencedUmac::new`], with nonces from `counter`.
    pub fn with_counter(key: &[u8], tag_len: usize, counter: NonceCounter) -> Result<Self, Error> {
        if !TAG_LENS.contains(&tag_len) {
            return Err(Error::UnsupportedTagLength { supported: &TAG_LENS, got: tag_len });
        }
        let key = umac_key(key)?;
        Ok(AnySequencedUmac(by_tag_len!(tag_len, N => SequencedUmac::<N>::with_counter(key, counter))))
    }

    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.0.tag_len()
    }

    /// See [`SequencedUmac::tag`].
    pub fn tag(&mut self, msg: &[u8]) -> Result<(u64, UmacTag), Error> {
        dispatch!(&mut self.0, m => m.tag(msg).map(|(n, tag)| (n, tag.into())))
    }

    /// See [`SequencedUmac::update`].
    pub fn update(&mut self, data: &[u8]) {
        dispatch!(&mut self.0, m => m.update(data))
    }

    /// See [`SequencedUmac::finalize_reset`].
    pub fn finalize_reset(&mut self) -> Result<(u64, UmacTag), Error> {
        dispatch!(&mut self.0, m => m.finalize_reset().map(|(n, tag)| (n, tag.into())))
    }

    /// See [`SequencedUmac::next_nonce`].
    pub fn next_nonce(&self) -> u64 {
        dispatch!(&self.0, m => m.next_nonce())
    }

    /// See [`SequencedUmac::remaining`].
    pub fn remaining(&self) -> u64 {
        dispatch!(&self.0, m => m.remaining())
    }
}

impl core::fmt::Debug for AnySequencedUmac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        dispatch!(&self.0, m => m.fmt(f))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TagLen, Umac, UmacTagLen};
    use super::*;

    const KEY: &[u8; 16] = b"abcdefghijklmnop";

    fn same_as_fixed<const N: usize>()
    where
        TagLen<N>: UmacTagLen,
    {
        let mut any = AnyUmac::new(KEY, N).unwrap();
        let mut fixed = Umac::<N>::new(KEY);
        assert_eq!(any.tag_len(), N);
        let tag = any.mac(b"nonce", b"message").unwrap();
        assert_eq!(tag.as_slice(), fixed.mac(b"nonce", b"message").unwrap());
        any.verify(b"nonce", b"message", tag.as_ref()).unwrap();
        assert_eq!(any.mac_shared(b"nonce", b"message").unwrap(), tag);
        any.verify_shared(b"nonce", b"message", tag.as_ref()).unwrap();
        any.update(b"mess");
        any.update(b"age");
        assert_eq!(any.finalize_reset(b"nonce").unwrap(), tag);
        any.update(b"message");
        any.verify_reset(b"nonce", tag.as_slice()).unwrap();
        any.update(b"discarded");
        any.reset();
        assert!(any.as_fixed_mut::<N>().is_some());
        assert_eq!(any.as_fixed_mut::<16>().is_some(), N == 16);
        assert_eq!(any.as_fixed_mut::<4>().is_some(), N == 4);
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

    fn sequenced_same_as_fixed<const N: usize>()
    where
        TagLen<N>: UmacTagLen,
    {
        let mut any = AnySequencedUmac::with_counter(KEY, N, NonceCounter::starting_at(5, 9).unwrap()).unwrap();
        let mut fixed = SequencedUmac::<N>::with_counter(KEY, NonceCounter::starting_at(5, 9).unwrap());
        assert_eq!((any.tag_len(), any.next_nonce(), any.remaining()), (N, 5, 4));
        let (nonce, tag) = any.tag(b"message").unwrap();
        let (fixed_nonce, fixed_tag) = fixed.tag(b"message").unwrap();
        assert_eq!((nonce, tag.as_slice()), (fixed_nonce, &fixed_tag[..]));
        any.update(b"mess");
        any.update(b"age");
        let (nonce, tag) = any.finalize_reset().unwrap();
        let (fixed_nonce, fixed_tag) = fixed.tag(b"message").unwrap();
        assert_eq!((nonce, tag.as_slice()), (fixed_nonce, &fixed_tag[..]));
    }

    #[test]
    fn every_tag_length_of_the_sequenced_form_equals_the_fixed_type() {
        sequenced_same_as_fixed::<4>();
        sequenced_same_as_fixed::<8>();
        sequenced_same_as_fixed::<12>();
        sequenced_same_as_fixed::<16>();
    }

    #[test]
    fn other_lengths_are_typed_errors() {
        for got in [0, 1, 5, 10, 17, 32, usize::MAX] {
            let err = Error::UnsupportedTagLength { supported: &TAG_LENS, got };
            assert_eq!(AnyUmac::new(KEY, got).unwrap_err(), err);
            assert_eq!(AnyUmac::new_from_slice(b"short", got).unwrap_err(), err, "tag length checked first");
        }
        assert_eq!(AnyUmac::new_from_slice(b"short", 8).unwrap_err(), Error::KeyLength { expected: 16, got: 5 });
        for got in [0, 5, 17] {
            let err = Error::UnsupportedTagLength { supported: &TAG_LENS, got };
            assert_eq!(AnySequencedUmac::new(b"short", got).unwrap_err(), err, "tag length checked first");
        }
        assert_eq!(AnySequencedUmac::new(b"short", 8).unwrap_err(), Error::KeyLength { expected: 16, got: 5 });
        let mut mac = AnyUmac::new(KEY, 8).unwrap();
        assert_eq!(mac.verify(b"n", b"m", &[0; 4]), Err(Error::TagLength { expected: 8, got: 4 }));
        assert_eq!(
            Error::UnsupportedTagLength { supported: &TAG_LENS, got: 10 }.to_string(),
            "unsupported tag length: expected 4, 8, 12 or 16 bytes, got 10"
        );
    }
}
