//! Badger with its tag length chosen at run time, for bindings that take it
//! as a parameter (a Python `digest_size`): [`AnyBadger`] (nonce mode),
//! [`AnyBadgerSender`] and [`AnyBadgerReceiver`] (sequential mode). The tag
//! length becomes a type here only (`by_tag_len!`, from
//! crates/fastmac/src/by_tag_len.rs).

use super::nonce_mode::Badger;
use super::sequential::{BadgerReceiver, BadgerSender};
use super::sizes::{KEY_LEN, MAX_TREES};
use crate::error::Error;
use crate::tag::InlineTag;

/// Badger's tag lengths in bytes: one tree per 4 bytes, 1 to 5 trees.
pub const TAG_LENS: [usize; MAX_TREES] = [4, 8, 12, 16, 20];

/// A Badger tag of one of the [`TAG_LENS`], held inline.
pub type BadgerTag = InlineTag<20>;

crate::by_tag_len::by_tag_len_types!($ B32(T4) = 4, B64(T8) = 8, B96(T12) = 12, B128(T16) = 16, B160(T20) = 20);

/// The constructor of a run-time type: the tag length checked first, then
/// the key's length, then the levels.
macro_rules! keyed {
    ($any:ident, $generic:ident, $key:expr, $tag_len:expr, $levels:expr) => {{
        if !TAG_LENS.contains(&$tag_len) {
            return Err(Error::UnsupportedTagLength { supported: &TAG_LENS, got: $tag_len });
        }
        let key: &[u8; KEY_LEN] =
            $key.try_into().map_err(|_| Error::KeyLength { expected: KEY_LEN, got: $key.len() })?;
        Ok($any(by_tag_len!($tag_len, N => $generic::<N>::with_levels(key, $levels)?)))
    }};
}

/// A [`Badger`] (nonce mode) whose tag length (4, 8, 12, 16 or 20 bytes) is
/// a run-time value; every method forwards to the Badger of that length.
///
/// ```
/// use fastmac::badger::{AnyBadger, Badger64, MAX_LEVELS};
///
/// let key = [7u8; 16];
/// let nonce = 1u64.to_le_bytes();
/// let mac = AnyBadger::new(&key, 8, MAX_LEVELS)?;
/// assert_eq!(mac.mac(&nonce, b"message")?.as_slice(), Badger64::new(&key).mac(&nonce, b"message")?);
/// # Ok::<(), fastmac::Error>(())
/// ```
#[derive(Clone)]
pub struct AnyBadger(ByTagLen<Badger<4>, Badger<8>, Badger<12>, Badger<16>, Badger<20>>);

impl AnyBadger {
    /// Keys Badger for `tag_len`-byte tags with `levels` tree levels (see
    /// [`Badger::with_levels`]).
    pub fn new(key: &[u8], tag_len: usize, levels: usize) -> Result<Self, Error> {
        keyed!(AnyBadger, Badger, key, tag_len, levels)
    }

    /// The Badger inside, boxed as a [`DynMac`](crate::dyn_mac::DynMac)
    /// ([`crate::Algorithm::new_mac`]): the box holds the Badger of the tag
    /// length itself, so that its calls take no further dispatch.
    #[cfg(feature = "alloc")]
    pub(crate) fn into_dyn_mac(self) -> alloc::boxed::Box<dyn crate::dyn_mac::DynMac> {
        dispatch!(self.0, m => alloc::boxed::Box::new(m))
    }

    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.0.tag_len()
    }

    /// See [`Badger::max_message_len`].
    pub fn max_message_len(&self) -> u64 {
        dispatch!(&self.0, m => m.max_message_len())
    }

    /// See [`Badger::mac`].
    pub fn mac(&self, nonce: &[u8], msg: &[u8]) -> Result<BadgerTag, Error> {
        dispatch!(&self.0, m => m.mac(nonce, msg).map(BadgerTag::from))
    }

    /// See [`Badger::verify_prefix`].
    pub fn verify_prefix(&self, nonce: &[u8], msg: &[u8], tag: &[u8], w: usize) -> Result<(), Error> {
        dispatch!(&self.0, m => m.verify_prefix(nonce, msg, tag, w))
    }

    /// See [`Badger::update`].
    pub fn update(&mut self, data: &[u8]) {
        dispatch!(&mut self.0, m => m.update(data))
    }

    /// See [`Badger::finalize_reset`].
    pub fn finalize_reset(&mut self, nonce: &[u8]) -> Result<BadgerTag, Error> {
        dispatch!(&mut self.0, m => m.finalize_reset(nonce).map(BadgerTag::from))
    }

    /// See [`Badger::verify_prefix_reset`].
    pub fn verify_prefix_reset(&mut self, nonce: &[u8], tag: &[u8], w: usize) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.verify_prefix_reset(nonce, tag, w))
    }

    /// See [`Badger::reset`].
    pub fn reset(&mut self) {
        dispatch!(&mut self.0, m => m.reset())
    }
}

/// A [`BadgerSender`] whose tag length is a run-time value.
pub struct AnyBadgerSender(
    ByTagLen<BadgerSender<4>, BadgerSender<8>, BadgerSender<12>, BadgerSender<16>, BadgerSender<20>>,
);

impl AnyBadgerSender {
    /// Keys a sender for `tag_len`-byte tags with `levels` tree levels (see
    /// [`BadgerSender::with_levels`]).
    pub fn new(key: &[u8], tag_len: usize, levels: usize) -> Result<Self, Error> {
        keyed!(AnyBadgerSender, BadgerSender, key, tag_len, levels)
    }

    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.0.tag_len()
    }

    /// See [`BadgerSender::position`].
    pub fn position(&self) -> u64 {
        dispatch!(&self.0, m => m.position())
    }

    /// See [`BadgerSender::tag`].
    pub fn tag(&mut self, msg: &[u8]) -> Result<BadgerTag, Error> {
        dispatch!(&mut self.0, m => m.tag(msg).map(BadgerTag::from))
    }

    /// See [`BadgerSender::update`].
    pub fn update(&mut self, data: &[u8]) {
        dispatch!(&mut self.0, m => m.update(data))
    }

    /// See [`BadgerSender::finalize_reset`].
    pub fn finalize_reset(&mut self) -> Result<BadgerTag, Error> {
        dispatch!(&mut self.0, m => m.finalize_reset().map(BadgerTag::from))
    }

    /// See [`BadgerSender::reset`].
    pub fn reset(&mut self) {
        dispatch!(&mut self.0, m => m.reset())
    }
}

/// A [`BadgerReceiver`] whose tag length is a run-time value.
pub struct AnyBadgerReceiver(
    ByTagLen<BadgerReceiver<4>, BadgerReceiver<8>, BadgerReceiver<12>, BadgerReceiver<16>, BadgerReceiver<20>>,
);

impl AnyBadgerReceiver {
    /// Keys a receiver for `tag_len`-byte tags with `levels` tree levels
    /// (see [`BadgerReceiver::with_levels`]).
    pub fn new(key: &[u8], tag_len: usize, levels: usize) -> Result<Self, Error> {
        keyed!(AnyBadgerReceiver, BadgerReceiver, key, tag_len, levels)
    }

    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.0.tag_len()
    }

    /// See [`BadgerReceiver::position`].
    pub fn position(&self) -> u64 {
        dispatch!(&self.0, m => m.position())
    }

    /// See [`BadgerReceiver::verify_prefix`].
    pub fn verify_prefix(&mut self, msg: &[u8], tag: &[u8], w: usize) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.verify_prefix(msg, tag, w))
    }

    /// See [`BadgerReceiver::update`].
    pub fn update(&mut self, data: &[u8]) {
        dispatch!(&mut self.0, m => m.update(data))
    }

    /// See [`BadgerReceiver::verify_prefix_reset`].
    pub fn verify_prefix_reset(&mut self, tag: &[u8], w: usize) -> Result<(), Error> {
        dispatch!(&mut self.0, m => m.verify_prefix_reset(tag, w))
    }

    /// See [`BadgerReceiver::reset`].
    pub fn reset(&mut self) {
        dispatch!(&mut self.0, m => m.reset())
    }
}

macro_rules! debug_by_name {
    ($($any:ident),+) => {$(
        impl core::fmt::Debug for $any {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                dispatch!(&self.0, m => m.fmt(f))
            }
        }
    )+};
}
debug_by_name!(AnyBadger, AnyBadgerSender, AnyBadgerReceiver);

#[cfg(test)]
mod tests {
    use super::super::sizes::MAX_LEVELS;
    use super::*;

    const KEY: [u8; 16] = [7; 16];

    fn same_as_fixed<const N: usize>() {
        let nonce = 3u64.to_le_bytes();
        let mut any = AnyBadger::new(&KEY, N, MAX_LEVELS).unwrap();
        let fixed = Badger::<N>::new(&KEY);
        assert_eq!(any.tag_len(), N);
        assert_eq!(any.max_message_len(), fixed.max_message_len());
        assert_eq!(
            AnyBadger::new(&KEY, N, 20).unwrap().max_message_len(),
            Badger::<N>::with_levels(&KEY, 20).unwrap().max_message_len()
        );
        let tag = any.mac(&nonce, b"message").unwrap();
        assert_eq!(tag.as_slice(), fixed.mac(&nonce, b"message").unwrap());
        any.verify_prefix(&nonce, b"message", tag.as_slice(), N / 4).unwrap();
        let mut consumed = fixed.clone();
        consumed.update(b"message");
        assert_eq!(&consumed.finalize(&nonce).unwrap()[..], tag.as_slice());
        let mut bad = tag.as_slice().to_vec();
        bad[0] ^= 1;
        assert_eq!(any.verify_prefix(&nonce, b"message", &bad, 1), Err(Error::InvalidTag));
        any.update(b"message");
        assert_eq!(any.verify_prefix_reset(&nonce, &bad, 1), Err(Error::InvalidTag));
        // Reset discards what was streamed: the tag is of what follows.
        any.update(b"discarded");
        any.reset();
        any.update(b"mess");
        any.update(b"age");
        assert_eq!(any.finalize_reset(&nonce).unwrap(), tag);
        let mut sender = AnyBadgerSender::new(&KEY, N, 20).unwrap();
        let mut receiver = AnyBadgerReceiver::new(&KEY, N, 20).unwrap();
        assert_eq!((sender.tag_len(), receiver.tag_len()), (N, N));
        let mut fixed_sender = BadgerSender::<N>::with_levels(&KEY, 20).unwrap();
        let max_len = Badger::<N>::with_levels(&KEY, 20).unwrap().max_message_len();
        assert_eq!(fixed_sender.max_message_len(), max_len);
        assert_eq!(BadgerReceiver::<N>::with_levels(&KEY, 20).unwrap().max_message_len(), max_len);
        let tag = sender.tag(b"first").unwrap();
        assert_eq!(tag.as_slice(), fixed_sender.tag(b"first").unwrap());
        receiver.verify_prefix(b"first", tag.as_slice(), N / 4).unwrap();
        sender.update(b"discarded");
        sender.reset();
        sender.update(b"sec");
        sender.update(b"ond");
        let tag = sender.finalize_reset().unwrap();
        assert_eq!(tag.as_slice(), fixed_sender.tag(b"second").unwrap());
        receiver.update(b"discarded");
        receiver.reset();
        receiver.update(b"second");
        receiver.verify_prefix_reset(tag.as_slice(), 1).unwrap();
        assert_eq!((sender.position(), receiver.position()), (2, 2));
        // Debug names the type and shows no key.
        let bits = 8 * N;
        assert_eq!(format!("{any:?}"), format!("Badger{bits} {{ .. }}"));
        assert_eq!(format!("{fixed:?}"), format!("Badger{bits} {{ .. }}"));
        assert_eq!(format!("{sender:?}"), format!("BadgerSender{bits} {{ position: 2 }}"));
        assert_eq!(format!("{receiver:?}"), format!("BadgerReceiver{bits} {{ position: 2 }}"));
    }

    #[test]
    fn every_tag_length_equals_the_fixed_type() {
        same_as_fixed::<4>();
        same_as_fixed::<8>();
        same_as_fixed::<12>();
        same_as_fixed::<16>();
        same_as_fixed::<20>();
    }

    #[test]
    fn other_lengths_are_typed_errors_tag_length_first() {
        for got in [0, 1, 5, 24, usize::MAX] {
            let err = Error::UnsupportedTagLength { supported: &TAG_LENS, got };
            assert_eq!(AnyBadger::new(&KEY, got, MAX_LEVELS).unwrap_err(), err);
            assert_eq!(AnyBadgerSender::new(b"short", got, MAX_LEVELS).unwrap_err(), err);
            assert_eq!(AnyBadgerReceiver::new(b"short", got, MAX_LEVELS).unwrap_err(), err);
        }
        assert_eq!(AnyBadger::new(b"short", 8, MAX_LEVELS).unwrap_err(), Error::KeyLength { expected: 16, got: 5 });
        assert!(matches!(AnyBadger::new(&KEY, 8, 0), Err(Error::OutOfRange { .. })));
    }
}
