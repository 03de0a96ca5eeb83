//! Keys on the command line: one format per option, so that the same
//! written key can never become two keys.
//!
//! * `--key HEX`: the key in hex.
//! * `--key-file PATH`: a file holding the key's raw bytes, exactly as
//!   many as the key has (as `b3sum --keyed` reads its key), nothing else:
//!   no hex, no trailing newline. A file that holds hex text instead is
//!   refused with a pointer to `--key-hex-file`, so that a key written in
//!   hex is never taken as its own ASCII characters.
//! * `--key-hex-file PATH`: a file holding the key in hex; white space
//!   around it (a trailing newline) is ignored.
//!
//! Key files are read up to [`KEY_FILE_MAX`] bytes: a larger file (or
//! `/dev/zero`) is an error after one short read. The key's length is
//! then checked against the algorithm's ([`KeyLength`]); docs/cli.md
//! section 3 says so for users.

use std::io::Read;
use std::path::Path;

use zeroize::Zeroizing;

use crate::input::{CliError, KeyLength, unhex};

/// The most bytes a key file may hold: far above any key (64 bytes for
/// HMAC-SHA2-512; a longer HMAC key is hashed down to the hash's output
/// length, RFC 2104 section 3), small enough to read at once.
pub const KEY_FILE_MAX: usize = 4096;

/// Where the key comes from.
#[derive(Debug, Clone, Copy)]
pub enum KeySource<'a> {
    /// `--key HEX`.
    Hex(&'a str),
    /// `--key-file PATH`: raw bytes.
    File(&'a Path),
    /// `--key-hex-file PATH`: hex text.
    HexFile(&'a Path),
}

/// Reads the key from `source` and checks its length; every message names
/// the option and the lengths, never the key.
pub fn read_key(source: KeySource<'_>, length: KeyLength) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let key = match source {
        KeySource::Hex(text) => Zeroizing::new(unhex("key", text)?),
        KeySource::File(path) => {
            let raw = read_key_file(path)?;
            if looks_like_hex_text(&raw) {
                return Err(CliError::Usage(format!(
                    "key file {} holds hex text, but --key-file takes the key's raw bytes: give a key written in hex with --key-hex-file",
                    path.display()
                )));
            }
            raw
        }
        KeySource::HexFile(path) => {
            let text = read_key_file(path)?;
            let text = std::str::from_utf8(&text)
                .map_err(|_| CliError::Hex { what: "key-hex-file", reason: "the file is not text".to_owned() })?;
            Zeroizing::new(unhex("key-hex-file", text.trim_ascii())?)
        }
    };
    check_length(source, length, &key)?;
    Ok(key)
}

/// An error unless `length` admits the key read from `source`.
pub fn check_length(source: KeySource<'_>, length: KeyLength, key: &[u8]) -> Result<(), CliError> {
    if length.admits(key.len()) {
        Ok(())
    } else {
        Err(CliError::KeyLength { file: file_of(source), length, got: key.len() })
    }
}

/// How an error names the key's file, if it came from one.
fn file_of(source: KeySource<'_>) -> Option<String> {
    match source {
        KeySource::Hex(_) => None,
        KeySource::File(path) => Some(format!("key file {} (raw bytes)", path.display())),
        KeySource::HexFile(path) => Some(format!("key file {} (hex)", path.display())),
    }
}

/// The whole of a key file of at most [`KEY_FILE_MAX`] bytes, read into
/// one buffer that is zeroized when dropped (no copy left behind by a
/// growing vector).
fn read_key_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let failed = |source| CliError::Io { what: format!("key file {}", path.display()), source };
    let file = std::fs::File::open(path).map_err(failed)?;
    let mut buf = Zeroizing::new(vec![0u8; KEY_FILE_MAX + 1]);
    let mut filled = 0;
    let mut limited = file.take(KEY_FILE_MAX as u64 + 1);
    loop {
        match limited.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(failed(err)),
        }
    }
    if filled > KEY_FILE_MAX {
        return Err(CliError::Usage(format!(
            "key file {} is larger than {KEY_FILE_MAX} bytes: not a key",
            path.display()
        )));
    }
    buf.truncate(filled);
    Ok(buf)
}

/// Hex digits, perhaps with white space around them: what `echo KEY >
/// FILE` writes. A random key of 16 bytes or more is all hex digits with
/// probability below (22/256)^16, about 10^-17.
fn looks_like_hex_text(bytes: &[u8]) -> bool {
    let text = bytes.trim_ascii();
    !text.is_empty() && text.iter().all(u8::is_ascii_hexdigit)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct TempFile(std::path::PathBuf);

    impl TempFile {
        fn new(name: &str, contents: &[u8]) -> TempFile {
            let path = std::env::temp_dir().join(format!("fastmac-key-{name}-{}", std::process::id()));
            std::fs::write(&path, contents).unwrap();
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn a_key_file_holds_raw_bytes_of_the_exact_length() {
        let raw = TempFile::new("raw", b"\x00\x01abcdefghijk\xffmn");
        let key = read_key(KeySource::File(&raw.0), KeyLength::Exactly(16)).unwrap();
        assert_eq!(&key[..], b"\x00\x01abcdefghijk\xffmn");
        let err = read_key(KeySource::File(&raw.0), KeyLength::Exactly(32)).unwrap_err().to_string();
        assert!(err.starts_with("wrong key length: expected 32 bytes, got 16 in key file"), "{err}");
    }

    #[test]
    fn hex_text_in_a_raw_key_file_is_refused_with_and_without_a_newline() {
        for (name, text) in
            [("hex", &b"00112233445566778899aabbccddeeff"[..]), ("hexnl", b"00112233445566778899aabbccddeeff\n")]
        {
            let file = TempFile::new(name, text);
            for length in [KeyLength::Exactly(32), KeyLength::AtLeast(32), KeyLength::Exactly(16)] {
                let err = read_key(KeySource::File(&file.0), length).unwrap_err().to_string();
                assert!(err.contains("holds hex text") && err.contains("--key-hex-file"), "{err}");
            }
            let key = read_key(KeySource::HexFile(&file.0), KeyLength::Exactly(16)).unwrap();
            assert_eq!(hex::encode(&key[..]), "00112233445566778899aabbccddeeff");
        }
    }

    #[test]
    fn a_short_raw_key_file_says_the_length_wanted() {
        let file = TempFile::new("short", &[0xa5; 15]);
        let err = read_key(KeySource::File(&file.0), KeyLength::Exactly(16)).unwrap_err().to_string();
        assert!(err.starts_with("wrong key length: expected 16 bytes, got 15"), "{err}");
    }

    #[test]
    fn hmac_lengths() {
        assert!(read_key(KeySource::Hex(""), KeyLength::AtLeast(32)).is_err());
        assert!(read_key(KeySource::Hex(&"00".repeat(31)), KeyLength::AtLeast(32)).is_err());
        assert_eq!(read_key(KeySource::Hex(&"00".repeat(33)), KeyLength::AtLeast(32)).unwrap().len(), 33);
        assert_eq!(read_key(KeySource::Hex(""), KeyLength::Any).unwrap().len(), 0);
        let err = read_key(KeySource::Hex("0011"), KeyLength::AtLeast(32)).unwrap_err().to_string();
        assert!(err.contains("expected at least 32 bytes, got 2") && err.contains("--allow-short-key"), "{err}");
    }

    #[test]
    fn large_key_files_are_refused_after_one_bounded_read() {
        let big = TempFile::new("big", &[7; KEY_FILE_MAX + 1]);
        let err = read_key(KeySource::File(&big.0), KeyLength::Exactly(16)).unwrap_err().to_string();
        assert!(err.contains("larger than 4096 bytes"), "{err}");
        // An endless file: one read of at most KEY_FILE_MAX + 1 bytes.
        let err = read_key(KeySource::File(Path::new("/dev/zero")), KeyLength::Exactly(16)).unwrap_err().to_string();
        assert!(err.contains("larger than 4096 bytes"), "{err}");
        let at_limit = TempFile::new("limit", &[7; KEY_FILE_MAX]);
        assert_eq!(read_key(KeySource::File(&at_limit.0), KeyLength::Any).unwrap().len(), KEY_FILE_MAX);
    }

    #[test]
    fn messages_never_quote_the_key() {
        let file = TempFile::new("secret", b"0123456789abcdef0123456789abcdeX\n");
        let err = read_key(KeySource::HexFile(&file.0), KeyLength::Exactly(16)).unwrap_err().to_string();
        assert!(err.starts_with("malformed hex in --key-hex-file: invalid character at position 31"), "{err}");
        assert!(!err.contains("0123456789abcdef"), "{err}");
    }
}
