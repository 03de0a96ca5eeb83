//! Badger's key setup, shared by both modes: the hash keys drawn from the
//! key-only Rabbit stream (figure 2), which sequential mode goes on reading
//! for its pads, the checks of a key and of a tag prefix, and the three
//! types' constructors, written once ([`badger_constructors!`]).

use rabbit::RabbitKeyOnly;
use rabbit::cipher::KeyInit;
use zeroize::Zeroize;

use super::keys::Keys;
use super::sizes::{KEY_LEN, MAX_LEVELS};
use crate::error::Error;

/// The key-only Rabbit stream and the hash keys drawn from it (figure 2).
/// The stream is left at `P0`, where sequential-mode pads start.
pub(super) fn key_setup(key: &[u8; KEY_LEN], trees: usize, levels: usize) -> Result<(Keys, RabbitKeyOnly), Error> {
    if !(1..=MAX_LEVELS).contains(&levels) {
        return Err(Error::OutOfRange { what: "Badger tree levels", min: 1, max: MAX_LEVELS, got: levels });
    }
    let mut key_array = (*key).into();
    let mut stream = RabbitKeyOnly::new(&key_array);
    key_array.zeroize();
    let keys = Keys::setup(&mut stream, trees, levels);
    Ok((keys, stream))
}

pub(super) fn key_from_slice(key: &[u8]) -> Result<&[u8; KEY_LEN], Error> {
    key.try_into().map_err(|_| Error::KeyLength { expected: KEY_LEN, got: key.len() })
}

/// Checks a verifier's tree count `w` (1..=u) and that `tag` is the full
/// tag or its first `4w` bytes.
pub(super) fn check_prefix(tag: &[u8], trees: usize, w: usize) -> Result<(), Error> {
    if !(1..=trees).contains(&w) {
        return Err(Error::OutOfRange { what: "trees to verify", min: 1, max: trees, got: w });
    }
    if tag.len() != 4 * trees && tag.len() != 4 * w {
        return Err(Error::TagLength { expected: 4 * trees, got: tag.len() });
    }
    Ok(())
}

/// The constructors of a Badger type with a `TAG_LEN`-byte tag: `new` (the
/// default, and largest, `v` = 58 levels: messages up to 2^61 - 1 bytes),
/// `new_from_slice`, and `with_levels`, which runs [`key_setup`] for
/// `trees_for(TAG_LEN)` trees and hands the key, the hash keys and the
/// stream left at `P0` to the type's `from_key_setup`. The doc line of
/// `with_levels` says what the levels mean for the type.
macro_rules! badger_constructors {
    ($ty:ident, $with_levels_doc:literal) => {
        impl<const TAG_LEN: usize> $ty<TAG_LEN> {
            /// Keys with the default (and largest) `v` = 58 levels: messages up
            /// to 2^61 - 1 bytes.
            pub fn new(key: &[u8; $crate::badger::sizes::KEY_LEN]) -> Self {
                Self::with_levels(key, $crate::badger::sizes::MAX_LEVELS).expect("58 levels are valid")
            }

            /// Like `new`, for a key of unchecked length.
            pub fn new_from_slice(key: &[u8]) -> Result<Self, $crate::error::Error> {
                Ok(Self::new($crate::badger::keying::key_from_slice(key)?))
            }

            #[doc = $with_levels_doc]
            pub fn with_levels(
                key: &[u8; $crate::badger::sizes::KEY_LEN],
                levels: usize,
            ) -> Result<Self, $crate::error::Error> {
                let trees = $crate::badger::sizes::trees_for(TAG_LEN);
                let (keys, stream) = $crate::badger::keying::key_setup(key, trees, levels)?;
                Ok(Self::from_key_setup(key, keys, stream))
            }
        }
    };
}
pub(super) use badger_constructors;
