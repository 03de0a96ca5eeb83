//! The CLI's parsers (crates/fastmac-cli): clap's argument definitions on
//! fuzzer-chosen argv vectors, then the argument checks of `tag`/`verify`
//! (`keyed`), the hex and key-file parsers against a model of what they
//! must accept, and the lines `tag` prints for several files and `check`
//! reads back. Never a panic; every error typed; every accepted value
//! round-trips; no error message quotes a key.
#![no_main]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::sync::OnceLock;

use clap::Parser;
use fastmac::ssh::ALGORITHMS as SSH_ALGORITHMS;
use fastmac::{Algorithm, Error};
use fastmac_cli::input::{CliError, KeyLength, unhex};
use fastmac_cli::key::{KEY_FILE_MAX, KeySource, read_key};
use fastmac_cli::sums::{Position, format_line, parse_line};
use fastmac_cli::{Cli, Command, KeyArgs, KeyedMac, MacArgs, PositionArgs, keyed};
use libfuzzer_sys::fuzz_target;

/// Words an argv element of one byte below 0x20 stands for, so that the
/// fuzzer reaches the subcommands and their options without guessing them.
const TOKENS: &[&str] = &[
    "tag",
    "verify",
    "list",
    "bench",
    "gears",
    "--alg",
    "--key",
    "--key-file",
    "--nonce",
    "--seq",
    "--tag",
    "umac-64",
    "hmac-sha2-256",
    "umac-128-etm@openssh.com",
    "badger-96",
    "--help",
    "--version",
    "--sizes",
    "table",
    "send",
    "recv",
    "attack",
    "-",
    "--json",
    "--algs",
    "--seconds",
    // A valid 16-byte key, an 8-byte nonce, a 16-byte tag, a 32-byte HMAC key.
    "000102030405060708090a0b0c0d0e0f",
    "0001020304050607",
    "ffeeddccbbaa99887766554433221100",
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
];

/// Words an argv element of two bytes, [`MORE`] and one below 0x20, stands
/// for (the one-byte words keep their numbers, so the corpus keeps its
/// meaning).
const MORE_TOKENS: &[&str] = &[
    "check",
    "--key-hex-file",
    "--allow-short-key",
    "--names",
    "--threads",
    "UMAC-64@OpenSSH.com",
    "hmac-sha1",
    "0",
    "2",
];

/// The first byte of a two-byte word of [`MORE_TOKENS`].
const MORE: u8 = 0x1f;

/// Inputs whose first byte is at least this check `check`'s lines; below
/// it, the first byte picks one of the three older modes.
const LINE_MODE: u8 = 0xf0;

/// What `unhex` must answer: `hex::decode`'s rules (an odd length first,
/// then the first byte that is not a hex digit), as the argument-naming
/// message of `CliError::Hex`.
fn expected_hex(text: &str) -> Result<Vec<u8>, String> {
    if text.len() % 2 == 1 {
        return Err("odd number of digits".to_owned());
    }
    if let Some(index) = text.bytes().position(|b| !b.is_ascii_hexdigit()) {
        return Err(format!("invalid character at position {index}"));
    }
    Ok((0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect())
}

/// `unhex` agrees with the model; a decoded value re-encodes to the
/// lowercased input; an error names the argument and never quotes the text.
fn check_unhex(what: &'static str, text: &str) -> Option<Vec<u8>> {
    let got = unhex(what, text);
    match (expected_hex(text), &got) {
        (Ok(bytes), Ok(decoded)) => {
            assert_eq!(decoded, &bytes);
            assert_eq!(hex::encode(decoded), text.to_ascii_lowercase(), "hex round trip");
        }
        (Err(reason), Err(err @ CliError::Hex { what: named, .. })) => {
            assert_eq!(*named, what);
            assert_eq!(err.to_string(), format!("malformed hex in --{what}: {reason}"));
        }
        (want, got) => panic!("unhex({text:?}): want {want:?}, got {got:?}"),
    }
    got.ok()
}

/// A scratch key file of this process.
fn key_file() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("fastmac-fuzz-key-{}", std::process::id())))
}

/// The length rule a fuzzer byte picks: exactly, at least, or any.
fn length_rule(byte: u8) -> KeyLength {
    let len = usize::from(byte % 72);
    match byte / 72 {
        0 => KeyLength::Exactly(len),
        1 => KeyLength::AtLeast(len),
        _ => KeyLength::Any,
    }
}

fn admits(length: KeyLength, len: usize) -> bool {
    match length {
        KeyLength::Exactly(n) => len == n,
        KeyLength::AtLeast(n) => len >= n,
        KeyLength::Any => true,
    }
}

/// `read_key` from a key file, raw (`--key-file`: the bytes as they are,
/// refused if they are hex text) or hex (`--key-hex-file`: hex with white
/// space around it); then the length rule; nothing else.
fn check_key_file(contents: &[u8], length: KeyLength, raw: bool) {
    assert!(contents.len() <= KEY_FILE_MAX, "the fuzzer's inputs are shorter");
    std::fs::write(key_file(), contents).unwrap();
    let source = if raw { KeySource::File(key_file()) } else { KeySource::HexFile(key_file()) };
    let got = read_key(source, length);
    std::fs::remove_file(key_file()).unwrap();
    let trimmed = contents.trim_ascii();
    let expected: Result<Vec<u8>, String> = if raw {
        if !trimmed.is_empty() && trimmed.iter().all(u8::is_ascii_hexdigit) {
            Err("holds hex text".to_owned())
        } else {
            Ok(contents.to_vec())
        }
    } else {
        match std::str::from_utf8(trimmed) {
            Err(_) => Err("malformed hex in --key-hex-file: the file is not text".to_owned()),
            Ok(text) => expected_hex(text).map_err(|reason| format!("malformed hex in --key-hex-file: {reason}")),
        }
    };
    match (expected, got) {
        (Ok(key), Ok(read)) => {
            assert!(admits(length, key.len()), "accepted a key of {} bytes under {length:?}", key.len());
            assert_eq!(&read[..], &key[..]);
        }
        (Ok(key), Err(err)) => {
            assert!(!admits(length, key.len()), "refused a key of {} bytes under {length:?}: {err}", key.len());
            assert!(err.to_string().starts_with("wrong key length"), "{err}");
        }
        (Err(why), Err(err)) => assert!(err.to_string().contains(&why), "{err} lacks {why}"),
        (Err(why), Ok(read)) => panic!("accepted a key file that {why} ({} bytes)", read.len()),
    }
}

/// What `keyed` must accept: an SSH name (any case) with `--seq` and a key
/// of its exact length; else a library name with a nonce of its length
/// (none for HMAC) and a key of its length (HMAC: at least it, or any with
/// `--allow-short-key`, which nothing else takes).
fn valid_keyed(mac: &MacArgs, position: &PositionArgs, key: Option<&[u8]>) -> bool {
    let Some(key) = key else { return false };
    if position.seq.is_some() {
        return SSH_ALGORITHMS
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(&mac.alg))
            .is_some_and(|alg| !mac.allow_short_key && key.len() == alg.key_len);
    }
    let Ok(alg) = Algorithm::from_name(&mac.alg) else { return false };
    let info = alg.info();
    let hmac = info.max_nonce_len == 0;
    let nonce = match &position.nonce {
        Some(text) => check_unhex("nonce", text),
        None if hmac => Some(Vec::new()),
        None => None,
    };
    let key_ok = if hmac {
        mac.allow_short_key || key.len() >= info.key_len
    } else {
        !mac.allow_short_key && key.len() == info.key_len
    };
    nonce.is_some_and(|n| (info.min_nonce_len..=info.max_nonce_len).contains(&n.len())) && key_ok
}

/// `keyed` (everything `tag` and `verify` check before reading input)
/// accepts exactly the valid combinations, and its errors never quote the
/// key.
fn check_keyed(mac: &MacArgs, position: &PositionArgs) {
    let Some(key_text) = mac.key.key.as_deref() else {
        return; // a fuzzer-named path could be /dev/zero; key files are fuzzed by check_key_file
    };
    let result = keyed(mac, position);
    let key = check_unhex("key", key_text);
    let valid = valid_keyed(mac, position, key.as_deref());
    match result {
        Ok((KeyedMac::Plain(keyed), first)) => {
            assert!(valid && position.seq.is_none(), "accepted {:?}", mac.alg);
            let info = Algorithm::from_name(&mac.alg).unwrap().info();
            assert_eq!(keyed.tag_len(), info.tag_len);
            let nonce = position.nonce.as_deref().map(|t| expected_hex(t).unwrap());
            assert_eq!(first, nonce.map_or(Position::Unused, Position::Nonce));
        }
        Ok((KeyedMac::Ssh(keyed), first)) => {
            assert!(valid && position.seq.is_some(), "accepted {:?} --seq", mac.alg);
            assert!(keyed.name().eq_ignore_ascii_case(&mac.alg));
            assert_eq!(first, Position::Seq(position.seq.unwrap()));
        }
        Err(err) => {
            assert!(!valid, "rejected a valid combination: {err}");
            let text = err.to_string();
            // The message may quote --alg (an unknown name), never the key.
            if key.is_some() && key_text.len() >= 8 && !format!("{:?}", mac.alg).contains(key_text) {
                assert!(!text.contains(key_text), "error quotes the key: {text}");
            }
            if let CliError::Mac(Error::InvalidTag) = err {
                panic!("keyed cannot check a tag");
            }
        }
    }
}

/// A line `check` reads: never a panic; an accepted line formats back (its
/// tag, its nonce if it is lowercase hex, its name) into a line that
/// parses to the same.
fn check_line(line: &[u8]) {
    let Ok(parsed) = parse_line(line) else { return };
    let position = match &parsed.position {
        None => Position::Unused,
        Some(text) => match expected_hex(text) {
            Ok(nonce) if hex::encode(&nonce) == *text => Position::Nonce(nonce),
            _ => return,
        },
    };
    let written = format_line(&parsed.tag, &position, &parsed.name);
    assert_eq!(written.iter().filter(|&&b| b == b'\n').count(), 1, "one line");
    let again = parse_line(written.strip_suffix(b"\n").unwrap()).expect("a written line parses");
    assert_eq!(again, parsed);
}

/// Splits the input at NUL bytes into argv elements; a one-byte element
/// below 0x20 is a token from `TOKENS`, a two-byte one [`MORE`], b (b below
/// 0x20) one from [`MORE_TOKENS`].
fn argv(data: &[u8]) -> Vec<OsString> {
    let mut args = vec![OsString::from("fastmac")];
    for part in data.split(|&b| b == 0) {
        match part {
            [MORE, b] if *b < 0x20 => args.push(MORE_TOKENS[usize::from(*b) % MORE_TOKENS.len()].into()),
            [b] if (*b as usize) < 0x20 => args.push(TOKENS[*b as usize % TOKENS.len()].into()),
            _ => args.push(OsString::from_vec(part.to_vec())),
        }
    }
    args
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode >= LINE_MODE {
        return check_line(rest);
    }
    match mode % 3 {
        0 => match Cli::try_parse_from(argv(rest)) {
            Ok(cli) => match &cli.command {
                Command::Tag(args) => check_keyed(&args.mac, &args.position),
                Command::Verify(args) => {
                    check_keyed(&args.mac, &args.position);
                    check_unhex("tag", &args.tag);
                }
                _ => {}
            },
            Err(err) => {
                let _ = err.render().to_string();
            }
        },
        1 => {
            let text = String::from_utf8_lossy(rest);
            check_unhex("nonce", &text);
            let none = KeyArgs { key: None, key_file: None, key_hex_file: None };
            assert!(matches!(none.source(), Err(CliError::Usage(_))));
            let from_arg = read_key(KeySource::Hex(&text), KeyLength::Any).ok().map(|k| k.to_vec());
            assert_eq!(from_arg, expected_hex(&text).ok());
        }
        _ => {
            let Some((&rule, contents)) = rest.split_first() else { return };
            check_key_file(contents, length_rule(rule / 2), rule % 2 == 0);
        }
    }
});
