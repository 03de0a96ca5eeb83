//! The tool's errors (with the key lengths they name), hex arguments, and
//! the checks that an output file or folder can be written. Keys are read
//! in [`crate::key`], messages in [`crate::source`].

use std::fmt;
use std::io;
use std::path::Path;

/// The key lengths an algorithm takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyLength {
    /// Exactly this many bytes (UMAC, Badger, the SSH MACs).
    Exactly(usize),
    /// At least this many (HMAC: RFC 2104 section 3 allows any length but
    /// calls one shorter than the hash output weaker; `fastmac list` gives
    /// that length).
    AtLeast(usize),
    /// Any length, the empty key included (HMAC with `--allow-short-key`).
    Any,
}

impl KeyLength {
    pub(crate) fn admits(self, len: usize) -> bool {
        match self {
            KeyLength::Exactly(n) => len == n,
            KeyLength::AtLeast(n) => len >= n,
            KeyLength::Any => true,
        }
    }
}

/// A bad argument or an unreadable input (exit status 2), or a stdout
/// closed by its reader.
#[derive(Debug)]
pub enum CliError {
    /// A library error (lengths, names).
    Mac(fastmac::Error),
    /// A gears error (configuration, payload, secret length).
    Gears(fastmac_gears::Error),
    /// An argument that is not valid hex. Names the argument, not its value.
    Hex {
        /// The argument's name (`key`, `nonce`, `tag`, ...).
        what: &'static str,
        /// Why it is not hex (a position or "odd number of digits").
        reason: String,
    },
    /// A key whose length the algorithm does not take.
    KeyLength {
        /// The key file it came from (`key file F (raw bytes)`), or `None`
        /// for `--key`.
        file: Option<String>,
        /// The lengths the algorithm takes.
        length: KeyLength,
        /// The key's length.
        got: usize,
    },
    /// A socket call of the gears demonstration that failed.
    Net {
        /// The call.
        call: NetCall,
        /// The address it was made on or to.
        addr: std::net::SocketAddr,
        /// The operating system's error.
        source: io::Error,
    },
    /// A file or stdin that could not be read.
    Io {
        /// The file (or "stdin").
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// A file that could not be written.
    Write {
        /// The file.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// A bad combination or value of options (e.g. an SSH name without
    /// `--seq`).
    Usage(String),
    /// Stdout was closed by its reader (`| head -1`): the command ends
    /// quietly, with status 0 for a listing and 1 for `tag` and `check`,
    /// whose output is their result.
    StdoutClosed,
}

/// A socket call, named in its error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetCall {
    /// `bind` of the address.
    Bind,
    /// Setting the read timeout of a bound socket.
    SetTimeout,
    /// `recv` on the address.
    Read,
    /// `send_to` the address.
    Send,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Mac(err) => err.fmt(f),
            CliError::Gears(err) => err.fmt(f),
            CliError::Hex { what, reason } => write!(f, "malformed hex in --{what}: {reason}"),
            CliError::KeyLength { file, length, got } => {
                let place = file.as_ref().map_or(String::new(), |file| format!(" in {file}"));
                match length {
                    KeyLength::Exactly(n) => write!(f, "wrong key length: expected {n} bytes, got {got}{place}"),
                    KeyLength::AtLeast(n) => write!(
                        f,
                        "wrong key length: expected at least {n} bytes, got {got}{place}; an HMAC key shorter than its hash's output is weaker (RFC 2104 section 3): --allow-short-key uses it anyway"
                    ),
                    KeyLength::Any => write!(f, "wrong key length: got {got}{place}"),
                }
            }
            CliError::Net { call, addr, source } => match call {
                NetCall::Bind => write!(f, "cannot bind {addr}: {source}"),
                NetCall::SetTimeout => write!(f, "cannot set a read timeout on {addr}: {source}"),
                NetCall::Read => write!(f, "cannot read from the socket on {addr}: {source}"),
                NetCall::Send => write!(f, "cannot send to {addr}: {source}"),
            },
            CliError::Io { what, source } => write!(f, "cannot read {what}: {source}"),
            CliError::Write { what, source } => write!(f, "cannot write {what}: {source}"),
            CliError::Usage(message) => f.write_str(message),
            CliError::StdoutClosed => f.write_str("stdout closed"),
        }
    }
}

impl From<fastmac::Error> for CliError {
    fn from(err: fastmac::Error) -> Self {
        CliError::Mac(err)
    }
}

impl From<fastmac_report::Error> for CliError {
    fn from(err: fastmac_report::Error) -> Self {
        match err {
            fastmac_report::Error::Measure(message) => CliError::Usage(message),
            fastmac_report::Error::Write { what, source } => CliError::Write { what, source },
        }
    }
}

impl From<fastmac_gears::Error> for CliError {
    fn from(err: fastmac_gears::Error) -> Self {
        CliError::Gears(err)
    }
}

/// Decodes a hex argument; the message names the argument, never echoes it
/// (it may be a key).
pub fn unhex(what: &'static str, text: &str) -> Result<Vec<u8>, CliError> {
    hex::decode(text).map_err(|err| CliError::Hex {
        what,
        reason: match err {
            hex::FromHexError::InvalidHexCharacter { index, .. } => {
                format!("invalid character at position {index}")
            }
            hex::FromHexError::OddLength => "odd number of digits".to_owned(),
            other => other.to_string(),
        },
    })
}

/// Fails at once, before a long measurement, if `path` cannot be created
/// or written (a missing directory, no permission). The file is left
/// empty, to be written at the end.
pub fn writable_file(path: &Path) -> Result<(), CliError> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map(drop)
        .map_err(|source| CliError::Write { what: path.display().to_string(), source })
}
