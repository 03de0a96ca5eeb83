//! The CLI's parsers (crates/fastmac-cli): clap's argument definitions on
//! fuzzer-chosen argv vectors, then the argument checks of `tag`/`verify`
//! (`keyed`), and the hex and key-file parsers against a model of what they
//! must accept. Never a panic; every error typed; every accepted value
//! round-trips; no error message quotes a key.
#![no_main]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::sync::OnceLock;

use clap::Parser;
use fastmac::ssh::SshAlgorithm;
use fastmac::{Algorithm, Error};
use fastmac_cli::input::{CliError, read_key, unhex};
use fastmac_cli::{Cli, Command, Keyed, MacArgs, keyed};
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

/// `read_key` from a key file: exactly `key_len` raw bytes, or hex text
/// (white space around it ignored); nothing else.
fn check_key_file(contents: &[u8], key_len: usize) {
    std::fs::write(key_file(), contents).unwrap();
    let got = read_key(None, Some(key_file()), key_len);
    std::fs::remove_file(key_file()).unwrap();
    if contents.len() == key_len {
        assert_eq!(&got.unwrap()[..], contents, "raw key file");
        return;
    }
    let Ok(text) = std::str::from_utf8(contents) else {
        let err = got.err().expect("a key file neither raw nor text accepted");
        assert_eq!(err.to_string(), format!("malformed hex in --key-file: neither {key_len} raw bytes nor hex text"));
        return;
    };
    match (expected_hex(text.trim()), got) {
        (Ok(bytes), Ok(key)) => assert_eq!(&key[..], &bytes[..]),
        (Err(reason), Err(err)) => assert_eq!(err.to_string(), format!("malformed hex in --key-file: {reason}")),
        (want, got) => panic!("key file {contents:?}: want {want:?}, got {:?}", got.map(|k| k.len())),
    }
}

/// `keyed` (everything `tag` and `verify` check before reading input)
/// accepts exactly the valid combinations, and its errors never quote the
/// key.
fn check_keyed(args: &MacArgs) {
    if args.key_file.is_some() {
        return; // a fuzzer-named path could be /dev/zero; key files are fuzzed by check_key_file
    }
    let key_text = args.key.as_deref().expect("clap requires --key or --key-file");
    let result = keyed(args);
    let key = check_unhex("key", key_text);
    let valid = match args.seq {
        Some(_) => {
            SshAlgorithm::from_name(&args.alg).is_ok_and(|alg| key.as_ref().is_some_and(|k| k.len() == alg.key_len))
        }
        None => Algorithm::from_name(&args.alg).is_ok_and(|alg| {
            let info = alg.info();
            let nonce = match &args.nonce {
                Some(text) => check_unhex("nonce", text),
                None if info.max_nonce_len == 0 => Some(Vec::new()),
                None => None,
            };
            nonce.is_some_and(|n| (info.min_nonce_len..=info.max_nonce_len).contains(&n.len()))
                && key.as_ref().is_some_and(|k| alg.new_mac(k).is_ok())
        }),
    };
    match result {
        Ok(Keyed::Plain { mac, nonce }) => {
            assert!(valid && args.seq.is_none(), "accepted {:?}", args.alg);
            let info = Algorithm::from_name(&args.alg).unwrap().info();
            assert_eq!(mac.tag_len(), info.tag_len);
            assert_eq!(Some(nonce), args.nonce.as_deref().map_or(Some(Vec::new()), |t| expected_hex(t).ok()));
        }
        Ok(Keyed::Ssh { mac, seq }) => {
            assert!(valid && args.seq == Some(seq), "accepted {:?} --seq", args.alg);
            assert_eq!(mac.tag_len(), SshAlgorithm::from_name(&args.alg).unwrap().tag_len);
        }
        Err(err) => {
            assert!(!valid, "rejected a valid combination: {err}");
            let text = err.to_string();
            // The message may quote --alg (an unknown name), never the key.
            if key.is_some() && key_text.len() >= 8 && !format!("{:?}", args.alg).contains(key_text) {
                assert!(!text.contains(key_text), "error quotes the key: {text}");
            }
            if let CliError::Mac(Error::InvalidTag) = err {
                panic!("keyed cannot check a tag");
            }
        }
    }
}

/// Splits the input at NUL bytes into argv elements; a one-byte element
/// below 0x20 is a token from `TOKENS`.
fn argv(data: &[u8]) -> Vec<OsString> {
    let mut args = vec![OsString::from("fastmac")];
    for part in data.split(|&b| b == 0) {
        match part {
            [b] if (*b as usize) < 0x20 => args.push(TOKENS[*b as usize % TOKENS.len()].into()),
            _ => args.push(OsString::from_vec(part.to_vec())),
        }
    }
    args
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    match mode % 3 {
        0 => match Cli::try_parse_from(argv(rest)) {
            Ok(cli) => match &cli.command {
                Command::Tag(args) | Command::Verify { mac: args, .. } => {
                    check_keyed(args);
                    if let Command::Verify { tag, .. } = &cli.command {
                        check_unhex("tag", tag);
                    }
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
            assert!(matches!(read_key(None, None, 16), Err(CliError::Usage(_))));
            let from_arg = read_key(Some(&text), None, 16).ok().map(|k| k.to_vec());
            assert_eq!(from_arg, expected_hex(&text).ok());
        }
        _ => {
            let Some((&key_len, contents)) = rest.split_first() else { return };
            check_key_file(contents, usize::from(key_len % 72));
        }
    }
});
