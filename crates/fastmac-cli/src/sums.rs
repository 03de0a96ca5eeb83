//! The lines `fastmac tag` prints for several files and `fastmac check`
//! reads back (the form of `b3sum` and `sha256sum`, with the message's
//! nonce between the tag and the name), and the nonce rule for several
//! files.
//!
//! A line is `TAG POSITION  NAME`: the tag in lowercase hex, one space,
//! the message's position under the key, two spaces, the file's name.
//! The position is the nonce in hex, or for an SSH MAC the packet
//! sequence number in decimal; a MAC without a nonce (HMAC) has none, and
//! its line is `TAG  NAME`, as `sha256sum` prints. A name holding a
//! backslash, a newline or a carriage return is escaped as GNU coreutils
//! and `b3sum` do: the line starts with a backslash, and the name holds
//! `\\`, `\n` and `\r` in their place.
//!
//! The nonce rule: `tag` given a first nonce N and k files tags file i
//! (from 0, in the order given) under N + i, reading N as a big-endian
//! number of its own length, and refuses before reading any file if
//! N + k - 1 does not fit in that length; so no two files of one command
//! share a nonce, and the next command under the key starts above the
//! last line's. An SSH MAC's sequence numbers follow the same rule within
//! 0 to 2^32 - 1. docs/cli.md section 4 says so for users.

use std::ffi::{OsStr, OsString};

use crate::input::{CliError, unhex};

/// Where a message sits among those tagged under one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Position {
    /// A MAC without a nonce (HMAC).
    Unused,
    /// A nonce (UMAC, Badger).
    Nonce(Vec<u8>),
    /// An SSH packet sequence number.
    Seq(u32),
}

impl Position {
    /// The position `offset` places after this one: the nonce plus
    /// `offset` as a big-endian number of the same length, or the sequence
    /// number plus `offset`; `None` past the largest value.
    pub fn advanced(&self, offset: u64) -> Option<Position> {
        match self {
            Position::Unused => Some(Position::Unused),
            Position::Nonce(nonce) => add_big_endian(nonce, offset).map(Position::Nonce),
            Position::Seq(seq) => u32::try_from(u64::from(*seq).checked_add(offset)?).ok().map(Position::Seq),
        }
    }

    /// The positions of `count` messages from this one, or an error naming
    /// the option if the last does not fit.
    pub fn series(&self, count: usize) -> Result<Vec<Position>, CliError> {
        let last = count.saturating_sub(1) as u64;
        if self.advanced(last).is_none() {
            let (option, room) = match self {
                Position::Nonce(nonce) => ("--nonce", format!("a {}-byte nonce", nonce.len())),
                _ => ("--seq", "a 32-bit sequence number".to_owned()),
            };
            return Err(CliError::Usage(format!(
                "{count} files need {count} {option} values from the one given, more than {room} holds from there: start lower or use a longer nonce"
            )));
        }
        Ok((0..count as u64).map(|i| self.advanced(i).expect("the last one fits")).collect())
    }

    /// The nonce to pass the MAC: empty for a MAC without one, and for an
    /// SSH MAC (its sequence number goes to `SshMac::start`).
    pub fn nonce(&self) -> &[u8] {
        match self {
            Position::Nonce(nonce) => nonce,
            Position::Unused | Position::Seq(_) => &[],
        }
    }
}

/// `number + offset` for a big-endian number, in the same length; `None`
/// when the sum needs more bytes.
fn add_big_endian(number: &[u8], offset: u64) -> Option<Vec<u8>> {
    let mut sum = number.to_vec();
    let mut carry = u128::from(offset);
    for byte in sum.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let total = u128::from(*byte) + (carry & 0xff);
        *byte = total as u8;
        carry = (carry >> 8) + (total >> 8);
    }
    (carry == 0).then_some(sum)
}

/// One line of `tag`'s output.
pub fn format_line(tag: &[u8], position: &Position, name: &OsStr) -> Vec<u8> {
    let (escaped, name) = escape(name);
    let mut line = Vec::with_capacity(2 * tag.len() + name.len() + 40);
    if escaped {
        line.push(b'\\');
    }
    line.extend_from_slice(hex::encode(tag).as_bytes());
    match position {
        Position::Unused => {}
        Position::Nonce(nonce) => line.extend_from_slice(format!(" {}", hex::encode(nonce)).as_bytes()),
        Position::Seq(seq) => line.extend_from_slice(format!(" {seq}").as_bytes()),
    }
    line.extend_from_slice(b"  ");
    line.extend_from_slice(&name);
    line.push(b'\n');
    line
}

/// One line of `check`'s output: `NAME: VERDICT`, the name escaped as in
/// [`format_line`].
pub fn format_verdict(name: &OsStr, verdict: &str) -> Vec<u8> {
    let (escaped, name) = escape(name);
    let mut line = Vec::with_capacity(name.len() + verdict.len() + 4);
    if escaped {
        line.push(b'\\');
    }
    line.extend_from_slice(&name);
    line.extend_from_slice(b": ");
    line.extend_from_slice(verdict.as_bytes());
    line.push(b'\n');
    line
}

/// The name's bytes with `\\`, `\n` and `\r` escaped, and whether any
/// was (the line then starts with a backslash).
fn escape(name: &OsStr) -> (bool, Vec<u8>) {
    let name = name_bytes(name);
    let escaped = name.iter().any(|b| matches!(b, b'\\' | b'\n' | b'\r'));
    let mut out = Vec::with_capacity(name.len());
    for &b in name.iter() {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b => out.push(b),
        }
    }
    (escaped, out)
}

/// A line read back: the tag, the position's text as written (parsed
/// once the MAC is known: hex for a nonce, decimal for a sequence
/// number), the file's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The tag.
    pub tag: Vec<u8>,
    /// The position field, if the line has one.
    pub position: Option<String>,
    /// The file's name, unescaped.
    pub name: OsString,
}

/// Parses one line (without its `\n`); the error says what is wrong.
pub fn parse_line(line: &[u8]) -> Result<Line, String> {
    let (escaped, line) = match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line.strip_suffix(b"\r").unwrap_or(line)),
    };
    let split =
        line.windows(2).position(|w| w == b"  ").ok_or("expected TAG [NONCE]  NAME (two spaces before the name)")?;
    let (head, name) = (&line[..split], &line[split + 2..]);
    let head = std::str::from_utf8(head).map_err(|_| "the tag and nonce are not text")?;
    let mut fields = head.split(' ');
    let tag_text = fields.next().filter(|t| !t.is_empty()).ok_or("no tag")?;
    let position = fields.next().map(str::to_owned);
    if fields.next().is_some() || position.as_deref() == Some("") {
        return Err("expected TAG [NONCE]  NAME (one space between the tag and the nonce)".into());
    }
    let tag = unhex("tag", tag_text).map_err(|err| not_hex("tag", err))?;
    if name.is_empty() {
        return Err("no file name".into());
    }
    let name = if escaped { unescape(name)? } else { name.to_vec() };
    Ok(Line { tag, position, name: name_from_bytes(name) })
}

/// Why a field of a line is not hex, naming the field (not an option).
pub fn not_hex(field: &str, err: CliError) -> String {
    match err {
        CliError::Hex { reason, .. } => format!("the {field} is not hex: {reason}"),
        other => other.to_string(),
    }
}

/// Undoes [`format_line`]'s escapes.
fn unescape(name: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(name.len());
    let mut bytes = name.iter();
    while let Some(&b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        out.push(match bytes.next() {
            Some(b'\\') => b'\\',
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            _ => return Err("a backslash in an escaped name must be followed by \\, n or r".into()),
        });
    }
    Ok(out)
}

#[cfg(unix)]
fn name_bytes(name: &OsStr) -> std::borrow::Cow<'_, [u8]> {
    std::os::unix::ffi::OsStrExt::as_bytes(name).into()
}

#[cfg(not(unix))]
fn name_bytes(name: &OsStr) -> std::borrow::Cow<'_, [u8]> {
    match name.to_string_lossy() {
        std::borrow::Cow::Borrowed(text) => text.as_bytes().into(),
        std::borrow::Cow::Owned(text) => text.into_bytes().into(),
    }
}

#[cfg(unix)]
fn name_from_bytes(bytes: Vec<u8>) -> OsString {
    std::os::unix::ffi::OsStringExt::from_vec(bytes)
}

#[cfg(not(unix))]
fn name_from_bytes(bytes: Vec<u8>) -> OsString {
    String::from_utf8_lossy(&bytes).into_owned().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_count_up_big_endian_in_their_own_length() {
        let first = Position::Nonce(vec![0x00, 0xfe]);
        assert_eq!(first.advanced(0), Some(Position::Nonce(vec![0x00, 0xfe])));
        assert_eq!(first.advanced(1), Some(Position::Nonce(vec![0x00, 0xff])));
        assert_eq!(first.advanced(2), Some(Position::Nonce(vec![0x01, 0x00])));
        assert_eq!(first.advanced(0xff01), Some(Position::Nonce(vec![0xff, 0xff])));
        assert_eq!(first.advanced(0xff02), None);
        assert_eq!(Position::Nonce(vec![0xff; 16]).advanced(1), None);
        assert_eq!(
            Position::Nonce(vec![0; 16]).advanced(u64::MAX).unwrap(),
            Position::Nonce({
                let mut n = vec![0; 8];
                n.extend([0xff; 8]);
                n
            })
        );
        assert_eq!(Position::Seq(u32::MAX - 1).advanced(1), Some(Position::Seq(u32::MAX)));
        assert_eq!(Position::Seq(u32::MAX).advanced(1), None);
        assert_eq!(Position::Unused.advanced(7), Some(Position::Unused));
    }

    #[test]
    fn a_series_that_would_wrap_is_refused() {
        let series = Position::Nonce(vec![0xfd]).series(3).unwrap();
        assert_eq!(series, [0xfd, 0xfe, 0xff].map(|n| Position::Nonce(vec![n])));
        let err = Position::Nonce(vec![0xfd]).series(4).unwrap_err().to_string();
        assert!(err.contains("4 files need 4 --nonce values") && err.contains("a 1-byte nonce"), "{err}");
        assert!(Position::Seq(u32::MAX).series(2).unwrap_err().to_string().contains("--seq"));
        assert_eq!(Position::Seq(u32::MAX).series(1).unwrap(), [Position::Seq(u32::MAX)]);
        assert_eq!(Position::Nonce(vec![1]).series(0).unwrap(), []);
    }

    #[test]
    fn lines_round_trip() {
        let names: [&[u8]; 6] = [b"a.txt", b"with  two spaces", b"back\\slash", b"new\nline", b"cr\r", b"-"];
        for position in [Position::Unused, Position::Nonce(vec![0, 1, 0xab]), Position::Seq(4_000_000_000)] {
            for name in names {
                let name = name_from_bytes(name.to_vec());
                let line = format_line(&[0xde, 0xad], &position, &name);
                assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1, "one line: {line:?}");
                let parsed = parse_line(line.strip_suffix(b"\n").unwrap()).unwrap();
                assert_eq!(parsed.tag, [0xde, 0xad]);
                assert_eq!(parsed.name, name);
                let expected = match &position {
                    Position::Unused => None,
                    Position::Nonce(n) => Some(hex::encode(n)),
                    Position::Seq(s) => Some(s.to_string()),
                };
                assert_eq!(parsed.position, expected);
            }
        }
        assert_eq!(format_line(&[1], &Position::Nonce(vec![2]), OsStr::new("f")), b"01 02  f\n");
        assert_eq!(format_line(&[1], &Position::Unused, OsStr::new("f")), b"01  f\n");
        assert_eq!(format_line(&[1], &Position::Seq(3), OsStr::new("a\\b")), b"\\01 3  a\\\\b\n");
        assert_eq!(format_verdict(OsStr::new("f"), "OK"), b"f: OK\n");
        assert_eq!(format_verdict(OsStr::new("a\nb"), "FAILED"), b"\\a\\nb: FAILED\n");
    }

    #[test]
    fn malformed_lines_say_why() {
        for (line, why) in [
            (&b"0011 22 f"[..], "two spaces"),
            (b"", "two spaces"),
            (b"  f", "no tag"),
            (b"0g  f", "the tag is not hex: invalid character at position 1"),
            (b"001  f", "the tag is not hex: odd number of digits"),
            (b"00 01 02  f", "one space"),
            (b"00  ", "no file name"),
            (b"\\00  a\\x", "backslash"),
        ] {
            let err = parse_line(line).unwrap_err();
            assert!(err.contains(why), "{line:?}: {err}");
        }
        // A CRLF line from another system: the CR is not part of the name.
        assert_eq!(parse_line(b"00  f\r").unwrap().name, OsString::from("f"));
        // A name may start with a space: only the first two spaces split.
        assert_eq!(parse_line(b"00   f").unwrap().name, OsString::from(" f"));
    }
}
