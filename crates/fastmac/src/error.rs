//! The one error type of the library.
//!
//! Messages name lengths and algorithm names only: never key, pad or tag bytes.
//! Payloads are fixed-size data, so the type needs no allocator (`no_std`).

use core::fmt;

use crate::umac::backend::Backend;

/// Everything that can go wrong when keying, tagging or verifying.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The key does not have the length the algorithm needs.
    KeyLength {
        /// Bytes the algorithm needs.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// The nonce length is outside what the algorithm accepts.
    NonceLength {
        /// Shortest nonce accepted, in bytes.
        min: usize,
        /// Longest nonce accepted, in bytes.
        max: usize,
        /// Bytes given.
        got: usize,
    },
    /// A tag (to verify, or a buffer to write one into) has the wrong length.
    TagLength {
        /// Bytes the algorithm produces.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// A tag length the algorithm does not offer (a UMAC of run-time tag
    /// length, `umac::AnyUmac`, takes 4, 8, 12 or 16 bytes).
    UnsupportedTagLength {
        /// The tag lengths the algorithm offers, in bytes.
        supported: &'static [usize],
        /// Bytes asked for.
        got: usize,
    },
    /// The tag does not authenticate the message under this key and nonce.
    InvalidTag,
    /// No algorithm has this name.
    UnknownAlgorithm(UnknownName),
    /// An NH backend was asked for by a name that does not exist or that
    /// this CPU cannot run (see [`Backend`]).
    Backend(BackendError),
    /// A sender-side nonce counter (`nonce::NonceCounter`, and the
    /// `umac::SequencedUmac` and `ssh::OutboundMac` built on it) used every
    /// value it may use under this key; it never wraps: rekey.
    NonceExhausted {
        /// The first value the counter refuses (for SSH: packets per key).
        limit: u64,
    },
    /// The all-zero nonce, which Badger reserves: its Rabbit pad would be
    /// Badger key material (docs/badger.md section 5).
    ZeroNonce,
    /// The message is longer than the keyed object can hash.
    MessageTooLong {
        /// Longest accepted message, in bytes.
        max: u64,
    },
    /// A numeric parameter is outside its range.
    OutOfRange {
        /// What the parameter is.
        what: &'static str,
        /// Smallest accepted value.
        min: usize,
        /// Largest accepted value.
        max: usize,
        /// Value given.
        got: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::KeyLength { expected, got } => {
                write!(f, "wrong key length: expected {expected} bytes, got {got}")
            }
            Error::NonceLength { min, max, got } if min == max => {
                write!(f, "wrong nonce length: expected {min} bytes, got {got}")
            }
            Error::NonceLength { min, max, got } => {
                write!(f, "wrong nonce length: expected {min} to {max} bytes, got {got}")
            }
            Error::TagLength { expected, got } => {
                write!(f, "wrong tag length: expected {expected} bytes, got {got}")
            }
            Error::UnsupportedTagLength { supported, got } => {
                f.write_str("unsupported tag length: expected ")?;
                for (i, len) in supported.iter().enumerate() {
                    let separator = match i {
                        0 => "",
                        _ if i + 1 == supported.len() => " or ",
                        _ => ", ",
                    };
                    write!(f, "{separator}{len}")?;
                }
                write!(f, " bytes, got {got}")
            }
            Error::InvalidTag => f.write_str("invalid tag: the message is not authentic"),
            Error::UnknownAlgorithm(name) => write!(f, "unknown algorithm {name}"),
            Error::Backend(problem) => problem.fmt(f),
            Error::NonceExhausted { limit } => {
                write!(f, "all {limit} nonces of this key are used (a nonce never repeats or wraps): rekey")
            }
            Error::ZeroNonce => {
                f.write_str("nonce 0 is reserved: its pad would repeat key material; use a nonzero nonce")
            }
            Error::MessageTooLong { max } => write!(f, "message too long: at most {max} bytes"),
            Error::OutOfRange { what, min, max, got } => {
                write!(f, "{what} must be {min} to {max}, got {got}")
            }
        }
    }
}

impl core::error::Error for Error {}

/// Why an NH backend cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackendError {
    /// No backend has this name.
    Unknown(UnknownName),
    /// The backend exists, but this CPU or build target cannot run it.
    Unsupported(Backend),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::Unknown(name) => {
                write!(f, "unknown NH backend {name} (expected portable, sse2, avx2, avx512 or neon)")
            }
            BackendError::Unsupported(backend) => {
                write!(f, "NH backend {backend} is not supported on this CPU or target")
            }
        }
    }
}

/// A name that matched nothing (an algorithm or a backend), kept inline so
/// that [`Error`] needs no allocator: its first
/// [`UnknownName::CAPACITY`] bytes, cut at a character boundary. Names are
/// public identifiers, never secrets.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct UnknownName {
    bytes: [u8; UnknownName::CAPACITY],
    len: u8,
    truncated: bool,
}

impl UnknownName {
    /// Bytes kept; every real algorithm name is shorter.
    pub const CAPACITY: usize = 32;

    /// Keeps `name`, or its longest prefix that fits and ends at a
    /// character boundary.
    pub fn new(name: &str) -> UnknownName {
        let mut len = name.len().min(Self::CAPACITY);
        while !name.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0; Self::CAPACITY];
        bytes[..len].copy_from_slice(&name.as_bytes()[..len]);
        UnknownName { bytes, len: len as u8, truncated: len < name.len() }
    }

    /// The name as given, or its kept prefix (see [`UnknownName::is_truncated`]).
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("cut at a character boundary")
    }

    /// Whether the given name was longer than [`UnknownName::CAPACITY`].
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl From<&str> for UnknownName {
    fn from(name: &str) -> UnknownName {
        UnknownName::new(name)
    }
}

/// Quoted and escaped like `{:?}` of a `str`; a cut name ends in `...`.
impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())?;
        if self.truncated { f.write_str("...") } else { Ok(()) }
    }
}

impl fmt::Debug for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_are_kept_whole_up_to_the_capacity() {
        assert_eq!(Error::UnknownAlgorithm("umac-63".into()).to_string(), "unknown algorithm \"umac-63\"");
        let longest = "x".repeat(UnknownName::CAPACITY);
        assert_eq!(UnknownName::new(&longest).as_str(), longest);
        assert!(!UnknownName::new(&longest).is_truncated());
    }

    #[test]
    fn longer_names_are_cut_at_a_character_boundary() {
        // 31 ASCII bytes, then a 2-byte character that would end at byte 33.
        let name = format!("{}\u{e9}tail", "a".repeat(31));
        let kept = UnknownName::new(&name);
        assert_eq!(kept.as_str(), "a".repeat(31));
        assert!(kept.is_truncated());
        assert!(kept.to_string().ends_with("\"..."));
        assert_ne!(kept, UnknownName::new(&"a".repeat(31)), "a cut name differs from the short one");
    }

    #[test]
    fn nul_and_control_bytes_are_escaped_in_messages() {
        assert_eq!(UnknownName::new("a\0b\n").to_string(), "\"a\\0b\\n\"");
    }

    #[test]
    fn errors_stay_small() {
        // Returned from every keying and tagging call: no bigger than the
        // `OutOfRange` variant needs.
        assert!(core::mem::size_of::<Error>() <= 48, "{}", core::mem::size_of::<Error>());
    }
}
