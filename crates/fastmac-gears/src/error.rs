//! The error type of the gears protocol.
//!
//! Messages name lengths, codes and limits only: never a secret, key, pad
//! or tag byte.

use core::fmt;

use crate::wire::WireError;

/// Everything that can go wrong when configuring a gears endpoint, sealing
/// a datagram or applying a control message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An error of the MAC layer passing through: a session secret or key
    /// of the wrong length, a tag of the wrong length, a tag that does not
    /// authenticate its message ([`fastmac::Error::InvalidTag`]).
    Mac(fastmac::Error),
    /// A gears datagram is malformed.
    Wire(WireError),
    /// A payload longer than a gears datagram can carry.
    PayloadTooLong {
        /// Longest payload, in bytes.
        max: usize,
        /// Bytes given.
        got: usize,
    },
    /// A sender used every sequence number of its epoch (they never wrap):
    /// it must rekey.
    SequenceExhausted,
    /// A sender used every key epoch: a new session secret is needed.
    EpochsExhausted,
    /// A configuration that cannot work.
    Config(&'static str),
    /// A control message was refused (forged ones are
    /// `Error::Mac(fastmac::Error::InvalidTag)`).
    Control(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Mac(e) => e.fmt(f),
            Error::Wire(e) => write!(f, "malformed gears datagram: {e}"),
            Error::PayloadTooLong { max, got } => write!(f, "payload of {got} bytes exceeds the {max}-byte maximum"),
            Error::SequenceExhausted => f.write_str("sequence numbers of this epoch are used up: rekey"),
            Error::EpochsExhausted => f.write_str("key epochs are used up: a new session secret is needed"),
            Error::Config(why) => write!(f, "invalid gears configuration: {why}"),
            Error::Control(why) => write!(f, "control message refused: {why}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Mac(e) => Some(e),
            Error::Wire(e) => Some(e),
            _ => None,
        }
    }
}

impl From<fastmac::Error> for Error {
    fn from(e: fastmac::Error) -> Self {
        Error::Mac(e)
    }
}

impl From<WireError> for Error {
    fn from(e: WireError) -> Self {
        Error::Wire(e)
    }
}
