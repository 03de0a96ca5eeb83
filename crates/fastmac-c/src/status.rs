//! The status code every general-API function returns, and its messages.
// The OpenSSH drop-in alone (without the feature `api`) has no fastmac_strerror.
#![cfg_attr(not(feature = "api"), allow(dead_code))]
#![allow(unsafe_code)] // `#[unsafe(no_mangle)]` on fastmac_strerror

use core::ffi::c_int;

use fastmac::Error;

/// The result of a libfastmac call. `FASTMAC_OK` (0) is success; every error
/// is a distinct positive value. `fastmac_strerror` describes each.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)] // C names: the header is the interface.
pub enum fastmac_status {
    /// Success.
    FASTMAC_OK = 0,
    /// A pointer argument was NULL (a buffer pointer may be NULL only when
    /// its length is 0).
    FASTMAC_ERR_NULL_POINTER = 1,
    /// The key does not have the algorithm's length (16 bytes for UMAC).
    FASTMAC_ERR_KEY_LENGTH = 2,
    /// The nonce length is outside the algorithm's range (1 to 16 bytes for UMAC).
    FASTMAC_ERR_NONCE_LENGTH = 3,
    /// A tag, or a buffer for one, does not have the algorithm's tag length.
    FASTMAC_ERR_TAG_LENGTH = 4,
    /// Verification failed: the tag does not authenticate the message.
    FASTMAC_ERR_INVALID_TAG = 5,
    /// No algorithm has the given name (or the name is not UTF-8).
    FASTMAC_ERR_UNKNOWN_ALGORITHM = 6,
    /// A length is larger than any object can be (above PTRDIFF_MAX).
    FASTMAC_ERR_LENGTH_OVERFLOW = 7,
    /// The library reported an error this version of the C API has no code for.
    FASTMAC_ERR_OTHER = 8,
    /// A bug: the library panicked (only a build with the crate's `std`
    /// feature returns this; the installed library aborts). The call had no
    /// effect the caller can rely on; free the handle it was given.
    FASTMAC_ERR_PANIC = 9,
    /// A handle that owns its nonces (sequenced UMAC, SSH outbound/inbound)
    /// used every value it may use under its key: rekey.
    FASTMAC_ERR_NONCE_EXHAUSTED = 10,
}

use fastmac_status::*;

impl From<&Error> for fastmac_status {
    fn from(err: &Error) -> Self {
        match err {
            Error::KeyLength { .. } => FASTMAC_ERR_KEY_LENGTH,
            Error::NonceLength { .. } => FASTMAC_ERR_NONCE_LENGTH,
            Error::TagLength { .. } | Error::UnsupportedTagLength { .. } => FASTMAC_ERR_TAG_LENGTH,
            Error::InvalidTag => FASTMAC_ERR_INVALID_TAG,
            Error::UnknownAlgorithm(_) => FASTMAC_ERR_UNKNOWN_ALGORITHM,
            Error::NonceExhausted { .. } => FASTMAC_ERR_NONCE_EXHAUSTED,
            // fastmac::Error is non-exhaustive: variants added later still get a code.
            _ => FASTMAC_ERR_OTHER,
        }
    }
}

impl From<Error> for fastmac_status {
    fn from(err: Error) -> Self {
        (&err).into()
    }
}

impl From<Result<(), Error>> for fastmac_status {
    fn from(result: Result<(), Error>) -> Self {
        match result {
            Ok(()) => FASTMAC_OK,
            Err(err) => (&err).into(),
        }
    }
}

/// A NUL-terminated message for each status, as static storage.
fn message(status: c_int) -> &'static core::ffi::CStr {
    const CODES: [(fastmac_status, &core::ffi::CStr); 11] = [
        (FASTMAC_OK, c"success"),
        (FASTMAC_ERR_NULL_POINTER, c"a pointer argument is NULL"),
        (FASTMAC_ERR_KEY_LENGTH, c"wrong key length"),
        (FASTMAC_ERR_NONCE_LENGTH, c"wrong nonce length"),
        (FASTMAC_ERR_TAG_LENGTH, c"wrong tag length"),
        (FASTMAC_ERR_INVALID_TAG, c"invalid tag: the message is not authentic"),
        (FASTMAC_ERR_UNKNOWN_ALGORITHM, c"unknown algorithm"),
        (FASTMAC_ERR_LENGTH_OVERFLOW, c"length too large"),
        (FASTMAC_ERR_OTHER, c"error without a specific code"),
        (FASTMAC_ERR_PANIC, c"internal error (panic caught at the C boundary)"),
        (FASTMAC_ERR_NONCE_EXHAUSTED, c"every nonce under this key is used: rekey"),
    ];
    CODES.iter().find(|(code, _)| *code as c_int == status).map_or(c"unknown status code", |(_, text)| text)
}

/// A static, NUL-terminated English description of `status`. Accepts any
/// int (unknown values get "unknown status code"); never returns NULL. The
/// string must not be freed.
#[cfg(feature = "api")]
#[unsafe(no_mangle)]
pub extern "C" fn fastmac_strerror(status: c_int) -> *const core::ffi::c_char {
    message(status).as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_own_message() {
        let texts: Vec<_> = (0..=10).map(message).collect();
        for (i, a) in texts.iter().enumerate() {
            assert_ne!(*a, c"unknown status code", "status {i}");
            assert!(texts[i + 1..].iter().all(|b| a != b), "status {i} shares its message");
        }
        assert_eq!(message(-1), c"unknown status code");
        assert_eq!(message(11), c"unknown status code");
    }

    #[test]
    fn errors_map_to_their_codes() {
        let cases = [
            (Error::KeyLength { expected: 16, got: 3 }, FASTMAC_ERR_KEY_LENGTH),
            (Error::NonceLength { min: 1, max: 16, got: 0 }, FASTMAC_ERR_NONCE_LENGTH),
            (Error::TagLength { expected: 8, got: 7 }, FASTMAC_ERR_TAG_LENGTH),
            (Error::UnsupportedTagLength { supported: &fastmac::umac::TAG_LENS, got: 7 }, FASTMAC_ERR_TAG_LENGTH),
            (Error::InvalidTag, FASTMAC_ERR_INVALID_TAG),
            (Error::UnknownAlgorithm("x".into()), FASTMAC_ERR_UNKNOWN_ALGORITHM),
            (Error::NonceExhausted { limit: 5 }, FASTMAC_ERR_NONCE_EXHAUSTED),
        ];
        for (err, code) in cases {
            assert_eq!(fastmac_status::from(Err(err)), code);
        }
        assert_eq!(fastmac_status::from(Ok(())), FASTMAC_OK);
    }
}
