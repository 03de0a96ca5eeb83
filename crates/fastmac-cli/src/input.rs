//! Command-line input: hex arguments, key files and streamed messages.

use std::fmt;
use std::fs::File;
use std::io;
use std::num::NonZeroUsize;
use std::path::Path;

use zeroize::Zeroizing;

/// A bad argument or an unreadable input: exit status 2.
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
    /// quietly.
    StdoutClosed,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Mac(err) => err.fmt(f),
            CliError::Gears(err) => err.fmt(f),
            CliError::Hex { what, reason } => write!(f, "malformed hex in --{what}: {reason}"),
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

/// The key from `--key HEX` or `--key-file PATH`. A key file holds either
/// exactly `key_len` raw bytes or the key in hex (surrounding white space
/// ignored).
pub fn read_key(hex_key: Option<&str>, path: Option<&Path>, key_len: usize) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let key = match (hex_key, path) {
        (Some(text), _) => unhex("key", text)?,
        (None, Some(path)) => {
            let raw = Zeroizing::new(
                std::fs::read(path)
                    .map_err(|source| CliError::Io { what: format!("key file {}", path.display()), source })?,
            );
            if raw.len() == key_len {
                raw.to_vec()
            } else {
                let text = std::str::from_utf8(&raw).map_err(|_| CliError::Hex {
                    what: "key-file",
                    reason: format!("neither {key_len} raw bytes nor hex text"),
                })?;
                unhex("key-file", text.trim())?
            }
        }
        // clap requires one of them; a library caller gets an error, not a panic.
        (None, None) => return Err(CliError::Usage("give the key: --key HEX or --key-file PATH".to_owned())),
    };
    Ok(Zeroizing::new(key))
}

/// Streams a file (or stdin for `None` and `-`) into `mac` in constant
/// memory, the way the library reads files
/// ([`fastmac::DynMac::update_from_file`]): UMAC hashes a large regular
/// file (stdin too, when it is one) on up to `threads` threads.
pub fn stream_into(path: Option<&Path>, mac: &mut dyn fastmac::DynMac, threads: NonZeroUsize) -> Result<(), CliError> {
    let (file, what) = match path {
        Some(p) if p != Path::new("-") => (File::open(p), p.display().to_string()),
        _ => (stdin_file(), "stdin".to_owned()),
    };
    let read = file.and_then(|mut file| mac.update_from_file(&mut file, threads));
    read.map(drop).map_err(|source| CliError::Io { what, source })
}

/// Stdin as a file of its own (the same open file, so its position moves
/// as the input is read): a regular file redirected to stdin is then read
/// with positioned reads like a named one.
#[cfg(unix)]
fn stdin_file() -> io::Result<File> {
    use std::os::fd::AsFd;
    Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
}

#[cfg(windows)]
fn stdin_file() -> io::Result<File> {
    use std::os::windows::io::AsHandle;
    Ok(File::from(io::stdin().as_handle().try_clone_to_owned()?))
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

/// Fails at once, before a long measurement, if `dir` cannot be created or
/// a file cannot be written in it.
pub fn writable_dir(dir: &Path) -> Result<(), CliError> {
    let failed = |source| CliError::Write { what: dir.display().to_string(), source };
    std::fs::create_dir_all(dir).map_err(failed)?;
    let probe = dir.join(format!(".fastmac-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(failed)?;
    std::fs::remove_file(&probe).map_err(failed)
}
