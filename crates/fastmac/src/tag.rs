//! The one constant-time tag comparison: every MAC's `verify` ends here.

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::Error;

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
