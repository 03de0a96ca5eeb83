//! The `fastmac` binary: tags match the library, bad input exits 2 with a
//! clear one-line message, a wrong tag exits 1.

mod common;

use std::process::Output;

use common::fastmac;

use fastmac::umac::{Umac32, Umac64, Umac96, Umac128};
use rand::{Rng, SeedableRng, rngs::StdRng};

const KEY: &str = "6162636465666768696a6b6c6d6e6f70"; // "abcdefghijklmnop"
const NONCE: &str = "6263646566676869"; // "bcdefghi"

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn library_tag(alg: &str, msg: &[u8]) -> String {
    let key = b"abcdefghijklmnop";
    let nonce = b"bcdefghi";
    hex::encode(match alg {
        "umac-32" => Umac32::new(key).mac(nonce, msg).unwrap().to_vec(),
        "umac-64" => Umac64::new(key).mac(nonce, msg).unwrap().to_vec(),
        "umac-96" => Umac96::new(key).mac(nonce, msg).unwrap().to_vec(),
        _ => Umac128::new(key).mac(nonce, msg).unwrap().to_vec(),
    })
}

#[test]
fn tags_of_files_and_stdin_match_the_library() {
    let dir = std::env::temp_dir().join(format!("fastmac-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = StdRng::seed_from_u64(5);
    for len in [0usize, 3, 1024, 1025, 200_000, 3 << 20] {
        let mut msg = vec![0u8; len];
        rng.fill(&mut msg[..]);
        let path = dir.join(format!("msg-{len}"));
        std::fs::write(&path, &msg).unwrap();
        for alg in ["umac-32", "umac-64", "umac-96", "umac-128"] {
            let expect = format!("{}\n", library_tag(alg, &msg));
            let args = ["tag", "--alg", alg, "--key", KEY, "--nonce", NONCE];
            let from_file = fastmac(&[&args[..], &[path.to_str().unwrap()]].concat(), b"");
            assert_eq!(stdout(&from_file), expect, "{alg} file len {len}");
            let from_stdin = fastmac(&args, &msg);
            assert_eq!(stdout(&from_stdin), expect, "{alg} stdin len {len}");
            let dash = fastmac(&[&args[..], &["-"]].concat(), &msg);
            assert_eq!(stdout(&dash), expect, "{alg} '-' len {len}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn key_file_raw_or_hex() {
    let dir = std::env::temp_dir().join(format!("fastmac-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let raw = dir.join("raw.key");
    std::fs::write(&raw, b"abcdefghijklmnop").unwrap();
    let hexfile = dir.join("hex.key");
    std::fs::write(&hexfile, format!("{KEY}\n")).unwrap();
    let expect = format!("{}\n", library_tag("umac-64", b"abc"));
    for path in [&raw, &hexfile] {
        let out = fastmac(&["tag", "--alg", "umac-64", "--key-file", path.to_str().unwrap(), "--nonce", NONCE], b"abc");
        assert_eq!(stdout(&out), expect);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_exit_codes() {
    let tag = library_tag("umac-96", b"hello");
    let args = |t: &str| ["verify", "--alg", "umac-96", "--key", KEY, "--nonce", NONCE, "--tag", t].map(String::from);
    let ok = fastmac(&args(&tag).each_ref().map(String::as_str), b"hello");
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    // Every single flipped bit gives exit 1.
    let bytes = hex::decode(&tag).unwrap();
    for bit in [0, 7, 45, 95] {
        let mut bad = bytes.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        let out = fastmac(&args(&hex::encode(&bad)).each_ref().map(String::as_str), b"hello");
        assert_eq!(out.status.code(), Some(1), "bit {bit}");
    }
    // The wrong message gives exit 1 too.
    let out = fastmac(&args(&tag).each_ref().map(String::as_str), b"hellO");
    assert_eq!(out.status.code(), Some(1));
}

/// Bad input: exit 2 and one line on stderr that says what is wrong.
fn assert_bad(args: &[&str], expect_in_message: &str) {
    let out = fastmac(args, b"msg");
    assert_eq!(out.status.code(), Some(2), "args {args:?}: {}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(expect_in_message), "args {args:?}: message {err:?} lacks {expect_in_message:?}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let tag8 = "0011223344556677";
    assert_bad(
        &["tag", "--alg", "umac-64", "--key", "zz62636465666768696a6b6c6d6e6f70", "--nonce", NONCE],
        "malformed hex in --key",
    );
    assert_bad(&["tag", "--alg", "umac-64", "--key", "616", "--nonce", NONCE], "odd number of digits");
    assert_bad(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "xy"], "malformed hex in --nonce");
    assert_bad(
        &["tag", "--alg", "umac-64", "--key", &KEY[..30], "--nonce", NONCE],
        "wrong key length: expected 16 bytes, got 15",
    );
    assert_bad(
        &["tag", "--alg", "umac-64", "--key", KEY, "--nonce", ""],
        "wrong nonce length: expected 1 to 16 bytes, got 0",
    );
    let nonce17 = "00".repeat(17);
    assert_bad(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", &nonce17], "got 17");
    assert_bad(
        &["verify", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, "--tag", "00112233"],
        "wrong tag length: expected 8 bytes, got 4",
    );
    assert_bad(
        &["verify", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, "--tag", "0g11223344556677"],
        "malformed hex in --tag",
    );
    assert_bad(&["tag", "--alg", "umac-63", "--key", KEY, "--nonce", NONCE], "unknown algorithm \"umac-63\"");
    assert_bad(
        &["verify", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, "--tag", tag8, "/nonexistent/file"],
        "cannot read /nonexistent/file",
    );
    // Error text never echoes the key.
    let out = fastmac(&["tag", "--alg", "umac-64", "--key", &KEY[..30], "--nonce", NONCE], b"");
    assert!(!stderr(&out).contains(&KEY[..30]));
}

#[test]
fn list_backends_names_the_backends_this_cpu_runs() {
    let out = fastmac(&["list", "--backends"], b"");
    assert_eq!(out.status.code(), Some(0));
    let names: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    let expected: Vec<String> =
        fastmac::umac::Backend::ALL.into_iter().filter(|b| b.is_supported()).map(|b| b.name().to_owned()).collect();
    assert_eq!(names, expected);
    assert_eq!(names.first().map(String::as_str), Some("portable"));
    // Every name listed is one the tool accepts as a forced backend, and
    // gives the library's tag.
    for name in &names {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fastmac"))
            .args(["tag", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, "--threads", "1"])
            .env("FASTMAC_BACKEND", name)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(stdout(&out).trim(), library_tag("umac-64", b""), "{name}");
    }
}

#[test]
fn list_names_every_algorithm_with_lengths_and_bounds() {
    let out = fastmac(&["list"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for (alg, tag, bound) in
        [("umac-32", "4", "2^-30"), ("umac-64", "8", "2^-60"), ("umac-96", "12", "2^-90"), ("umac-128", "16", "2^-120")]
    {
        let line = text.lines().find(|l| l.starts_with(alg)).unwrap_or_else(|| panic!("{alg} missing"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[1..4], ["16", "1-16", tag], "{line}");
        assert!(line.contains(bound), "{line}");
    }
}
