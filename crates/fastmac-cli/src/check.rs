//! `fastmac check`: verifies files against the lines `fastmac tag` prints
//! ([`crate::sums`]), one verdict per file, as `sha256sum -c` does: `FILE:
//! OK`, `FILE: FAILED`, or `FILE: FAILED open or read` (with the reason
//! on stderr). A malformed line is reported on stderr with its list and
//! line number, and the others are still checked (docs/cli.md section 5).

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::input::CliError;
use crate::input::KeyLength;
use crate::key::{check_length, read_key};
use crate::names;
use crate::source::{Input, Reader};
use crate::sums::{self, Position};
use crate::{CheckArgs, KeyedMac, MacKind, Outcome, out};

/// The longest line read: a tag and a nonce in hex and a path of 4096
/// bytes with every byte escaped fit several times over. A list with a
/// longer line is not a list; the rest of it is not read.
const LINE_MAX: usize = 16 << 10;

/// Runs `fastmac check`.
pub(crate) fn run(args: &CheckArgs) -> Result<Outcome, CliError> {
    let mut forms = Forms::new(args)?;
    let lists = crate::inputs(&args.lists)?;
    let reader = Reader::new(args.mac.threads());
    let mut tally = Tally::default();
    for list in &lists {
        check_list(list, &mut forms, &reader, &mut tally)?;
    }
    tally.outcome(&lists)
}

/// The MACs an `--alg` stands for in a list: the registry's (lines with a
/// nonce, or none for HMAC) and the SSH MAC (lines with a sequence
/// number). An HMAC's name is both; each form is keyed if the key has a
/// length it takes, and a line of a form the key does not fit is bad.
struct Forms {
    plain: Option<(MacKind, Result<KeyedMac, String>)>,
    ssh: Option<(MacKind, Result<KeyedMac, String>)>,
}

impl Forms {
    fn new(args: &CheckArgs) -> Result<Forms, CliError> {
        let plain = names::plain(&args.mac.alg).map(MacKind::Plain);
        let ssh = names::ssh(&args.mac.alg).map(MacKind::Ssh);
        let kinds: Vec<MacKind> = plain.into_iter().chain(ssh).collect();
        let Some(&first) = kinds.first() else {
            return Err(names::unknown("algorithm", &args.mac.alg, names::plain_names().chain(names::ssh_names())));
        };
        if args.mac.allow_short_key && !kinds.iter().any(|k| k.is_hmac()) {
            first.key_length(true)?;
        }
        let source = args.mac.key.source()?;
        let key = read_key(source, KeyLength::Any)?;
        let mut keyed = Vec::new();
        for kind in kinds {
            let length = if kind.is_hmac() {
                kind.key_length(args.mac.allow_short_key)?
            } else {
                KeyLength::Exactly(kind.exact_key_len())
            };
            keyed.push((kind, check_length(source, length, &key).and_then(|()| kind.new_mac(&key))));
        }
        if keyed.iter().all(|(_, mac)| mac.is_err()) {
            let (_, first_error) = keyed.swap_remove(0);
            return Err(first_error.err().expect("every form failed"));
        }
        let mut forms = Forms { plain: None, ssh: None };
        for (kind, mac) in keyed {
            let slot = match kind {
                MacKind::Plain(_) => &mut forms.plain,
                MacKind::Ssh(_) => &mut forms.ssh,
            };
            *slot = Some((kind, mac.map_err(|err| err.to_string())));
        }
        Ok(forms)
    }

    /// The MAC a line is checked with and the message's position, from the
    /// line's position field (hex nonce, decimal sequence number, or none).
    fn for_line(&mut self, position: Option<&str>) -> Result<(&mut KeyedMac, Position), String> {
        let (form, position) = match (position, &self.plain) {
            (Some(text), _) if self.ssh.is_some() => (&mut self.ssh, Position::Seq(sequence_number(text)?)),
            (Some(text), Some((kind, _))) if !kind.is_hmac() => {
                let nonce = crate::input::unhex("nonce", text).map_err(|err| sums::not_hex("nonce", err))?;
                kind.check_nonce(&nonce).map_err(|err| err.to_string())?;
                (&mut self.plain, Position::Nonce(nonce))
            }
            (Some(_), _) => return Err("this MAC takes no nonce, but the line has one".into()),
            (None, Some((kind, _))) if kind.is_hmac() => (&mut self.plain, Position::Unused),
            (None, Some(_)) => return Err("no nonce: expected TAG NONCE  FILE".into()),
            (None, None) => return Err("no sequence number: expected TAG SEQ  FILE".into()),
        };
        match form {
            Some((_, Ok(mac))) => Ok((mac, position)),
            Some((_, Err(why))) => Err(why.clone()),
            None => Err("no MAC of this name takes such a line".into()),
        }
    }
}

/// A sequence number as `tag` writes it: decimal digits, 0 to 2^32 - 1.
fn sequence_number(text: &str) -> Result<u32, String> {
    let invalid = || format!("not a sequence number (0 to {}): {text:?}", u32::MAX);
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    text.parse().map_err(|_| invalid())
}

/// Counts of one run.
#[derive(Default)]
struct Tally {
    /// Files checked (OK, FAILED, or unreadable).
    checked: usize,
    /// Files FAILED or unreadable.
    failed: usize,
    /// Malformed lines and unreadable lists.
    bad: usize,
}

impl Tally {
    fn outcome(&self, lists: &[Input]) -> Result<Outcome, CliError> {
        if self.checked == 0 && self.bad == 0 {
            let names: Vec<String> = lists.iter().map(Input::describe).collect();
            return Err(CliError::Usage(format!("no lines to check in {}", names.join(", "))));
        }
        if self.failed > 0 {
            out::warn(&format!("fastmac: {} of {} files FAILED", self.failed, self.checked));
        }
        Ok(match (self.bad, self.failed) {
            (0, 0) => Outcome::Done,
            (0, _) => Outcome::ChecksFailed,
            _ => Outcome::BadInput,
        })
    }
}

/// What the next read of a list found.
enum Next {
    /// A line, now in the buffer without its newline.
    Line,
    /// A line longer than [`LINE_MAX`].
    TooLong,
    /// The end of the list.
    End,
}

/// Reads the next line of at most [`LINE_MAX`] bytes into `buf`.
fn next_line(list: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Next> {
    buf.clear();
    let read = list.by_ref().take(LINE_MAX as u64 + 1).read_until(b'\n', buf)?;
    if read == 0 {
        return Ok(Next::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    }
    Ok(if buf.len() > LINE_MAX { Next::TooLong } else { Next::Line })
}

/// Checks every line of one list.
fn check_list(list: &Input, forms: &mut Forms, reader: &Reader, tally: &mut Tally) -> Result<(), CliError> {
    let bad = |tally: &mut Tally, message: String| {
        out::warn(&format!("fastmac: {message}"));
        tally.bad += 1;
    };
    let file = match list.open() {
        Ok(file) => file,
        Err(source) => {
            bad(tally, CliError::Io { what: list.describe(), source }.to_string());
            return Ok(());
        }
    };
    let mut lines = BufReader::new(file);
    let mut buf = Vec::new();
    for number in 1.. {
        let at = format!("{}:{number}", list.describe());
        match next_line(&mut lines, &mut buf) {
            Ok(Next::End) => break,
            Ok(Next::Line) => {}
            Ok(Next::TooLong) => {
                bad(tally, format!("{at}: longer than {LINE_MAX} bytes: not a list of tags; the rest is not read"));
                break;
            }
            Err(source) => {
                bad(tally, CliError::Io { what: list.describe(), source }.to_string());
                break;
            }
        }
        match verdict(&buf, list, forms, reader) {
            Ok((name, verdict)) => {
                tally.checked += 1;
                if verdict != Verdict::Ok {
                    tally.failed += 1;
                }
                out::print_bytes(&sums::format_verdict(&name, verdict.text()))?;
            }
            Err(why) => bad(tally, format!("{at}: {why}")),
        }
    }
    Ok(())
}

/// What checking one file found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Ok,
    Failed,
    /// The file could not be read (the reason went to stderr).
    Unreadable,
}

impl Verdict {
    /// The words `sha256sum -c` prints.
    fn text(self) -> &'static str {
        match self {
            Verdict::Ok => "OK",
            Verdict::Failed => "FAILED",
            Verdict::Unreadable => "FAILED open or read",
        }
    }
}

/// The file a line names and the verdict on it; `Err` says why the line
/// is bad.
fn verdict(line: &[u8], list: &Input, forms: &mut Forms, reader: &Reader) -> Result<(OsString, Verdict), String> {
    let line = sums::parse_line(line)?;
    let input = Input::from_operand(Path::new(&line.name));
    if input == Input::Stdin && *list == Input::Stdin {
        return Err("the file \"-\" is stdin, which holds the list".into());
    }
    let (mac, position) = forms.for_line(line.position.as_deref())?;
    if line.tag.len() != mac.tag_len() {
        return Err(format!("wrong tag length: expected {} bytes, got {}", mac.tag_len(), line.tag.len()));
    }
    let verdict = match mac.verify(reader, &input, &position, &line.tag) {
        Ok(true) => Verdict::Ok,
        Ok(false) => Verdict::Failed,
        Err(err @ CliError::Io { .. }) => {
            out::warn(&format!("fastmac: error: {err}"));
            Verdict::Unreadable
        }
        Err(err) => return Err(err.to_string()),
    };
    Ok((line.name, verdict))
}
