//! Tags: the one constant-time tag comparison, where every MAC's `verify`
//! ends, and [`InlineTag`], the tag of the MAC types whose tag length is
//! chosen at run time.

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::error::Error;

/// Compares the tag this side computed, `expected`, with the `received`
/// one in constant time (`subtle`), then wipes `expected`. A byte slice of
/// another length, or any differing bit, is [`Error::InvalidTag`].
///
/// Generic so that a tag kept in a register (a `u128`, as the nested UMAC's
/// receiver holds it) is compared as one word, without a trip through
/// memory, and a byte tag as bytes.
#[inline]
pub(crate) fn verify_tag<T: ConstantTimeEq + Zeroize + ?Sized>(expected: &mut T, received: &T) -> Result<(), Error> {
    let equal: bool = expected.ct_eq(received).into();
    expected.zeroize();
    if equal { Ok(()) } else { Err(Error::InvalidTag) }
}

/// A tag of a length chosen at run time, up to `MAX` bytes, held inline
/// (no allocation): what [`crate::umac::AnyUmac`] and the run-time Badger
/// types return, as [`crate::umac::UmacTag`] and [`crate::badger::BadgerTag`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct InlineTag<const MAX: usize> {
    bytes: [u8; MAX],
    len: usize,
}

impl<const MAX: usize> InlineTag<MAX> {
    /// The tag's bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl<const MAX: usize, const N: usize> From<[u8; N]> for InlineTag<MAX> {
    fn from(tag: [u8; N]) -> InlineTag<MAX> {
        const { assert!(N <= MAX, "a tag longer than the inline buffer") };
        let mut bytes = [0u8; MAX];
        bytes[..N].copy_from_slice(&tag);
        InlineTag { bytes, len: N }
    }
}

impl<const MAX: usize> AsRef<[u8]> for InlineTag<MAX> {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_tags_pass_and_others_are_invalid_tag() {
        assert_eq!(verify_tag(&mut [1u8, 2, 3][..], &[1, 2, 3][..]), Ok(()));
        assert_eq!(verify_tag(&mut [1u8, 2, 3][..], &[1, 2, 4][..]), Err(Error::InvalidTag));
        assert_eq!(verify_tag(&mut [1u8, 2, 3][..], &[1, 2][..]), Err(Error::InvalidTag), "length differs");
        assert_eq!(verify_tag(&mut 7u128, &7), Ok(()));
        assert_eq!(verify_tag(&mut 7u128, &(7 | 1 << 127)), Err(Error::InvalidTag));
    }

    #[test]
    fn expected_is_wiped() {
        let mut expected = [9u8; 8];
        let _ = verify_tag(&mut expected[..], &[9; 8][..]);
        assert_eq!(expected, [0; 8]);
        let mut word = u128::MAX;
        let _ = verify_tag(&mut word, &0);
        assert_eq!(word, 0);
    }
}
