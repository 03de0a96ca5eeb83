//! The one error type of the library.
//!
//! Messages name lengths and algorithm names only: never key, pad or tag bytes.

use core::fmt;

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
    UnknownAlgorithm(String),
    /// An NH backend was asked for by a name that does not exist or that
    /// this CPU cannot run (see `umac::Backend`).
    Backend(String),
    /// A gears datagram is malformed.
    Wire(crate::gears::WireError),
    /// A payload longer than a gears datagram can carry.
    PayloadTooLong {
        /// Longest payload, in bytes.
        max: usize,
        /// Bytes given.
        got: usize,
    },
    /// A gears sender used every sequence number of its epoch (they never
    /// wrap): it must rekey.
    SequenceExhausted,
    /// A gears sender used every key epoch: a new session secret is needed.
    EpochsExhausted,
    /// A sender-side nonce counter (`nonce::NonceCounter`, and the
    /// `umac::SequencedUmac` and `ssh::OutboundMac` built on it) used every
    /// value it may use under this key; it never wraps: rekey.
    NonceExhausted {
        /// The first value the counter refuses (for SSH: packets per key).
        limit: u64,
    },
    /// A gears configuration that cannot work.
    GearsConfig(&'static str),
    /// A gears control message was refused (forged ones are
    /// [`Error::InvalidTag`]).
    GearsControl(&'static str),
    /// The all-zero nonce, which Badger reserves: its Rabbit pad would be
    /// Badger key material (badger.md section 5).
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
            Error::UnknownAlgorithm(name) => write!(f, "unknown algorithm {name:?}"),
            Error::Backend(reason) => f.write_str(reason),
            Error::Wire(e) => write!(f, "malformed gears datagram: {e}"),
            Error::PayloadTooLong { max, got } => write!(f, "payload of {got} bytes exceeds the {max}-byte maximum"),
            Error::SequenceExhausted => f.write_str("sequence numbers of this epoch are used up: rekey"),
            Error::EpochsExhausted => f.write_str("key epochs are used up: a new session secret is needed"),
            Error::NonceExhausted { limit } => {
                write!(f, "all {limit} nonces of this key are used (a nonce never repeats or wraps): rekey")
            }
            Error::GearsConfig(why) => write!(f, "invalid gears configuration: {why}"),
            Error::GearsControl(why) => write!(f, "control message refused: {why}"),
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

impl std::error::Error for Error {}

impl From<crate::gears::WireError> for Error {
    fn from(e: crate::gears::WireError) -> Self {
        Error::Wire(e)
    }
}
