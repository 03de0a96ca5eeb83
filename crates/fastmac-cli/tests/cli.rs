//! The `fastmac` binary: tags match the library, bad input exits 2 with a
//! clear one-line message, a wrong tag exits 1.

mod common;

use std::process::Output;

use common::{TempDir, fastmac};

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
fn key_files_hold_raw_bytes_and_hex_key_files_hex() {
    let dir = TempDir::new("keys");
    let raw = dir.write("raw.key", b"abcdefghijklmnop");
    let hex_file = dir.write("hex.key", format!("{KEY}\n").as_bytes());
    let expect = format!("{}\n", library_tag("umac-64", b"abc"));
    for (option, path) in [("--key-file", &raw), ("--key-hex-file", &hex_file)] {
        let out = fastmac(&["tag", "--alg", "umac-64", option, path, "--nonce", NONCE], b"abc");
        assert_eq!(stdout(&out), expect, "{option}: {}", stderr(&out));
    }
    // One meaning per option: the hex text is not taken as raw bytes, nor
    // the raw bytes as hex.
    assert_bad(&["tag", "--alg", "umac-64", "--key-file", &hex_file, "--nonce", NONCE], "holds hex text");
    assert_bad(
        &["tag", "--alg", "umac-64", "--key-hex-file", &raw, "--nonce", NONCE],
        "malformed hex in --key-hex-file",
    );
    let both = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--key-file", &raw, "--nonce", NONCE], b"abc");
    assert_eq!(both.status.code(), Some(2));
    assert!(stderr(&both).contains("cannot be used with"), "{}", stderr(&both));
}

/// The same 32 characters written with and without a newline were two
/// different HMAC keys; now --key-file refuses both (hex text), and
/// --key-hex-file reads both as the same 16-byte key.
#[test]
fn a_key_written_in_hex_is_one_key_with_or_without_a_newline() {
    let dir = TempDir::new("hmac-keys");
    let text = "00112233445566778899aabbccddeeff";
    let bare = dir.write("bare", text.as_bytes());
    let newline = dir.write("newline", format!("{text}\n").as_bytes());
    let msg = b"abc\n";
    for path in [&bare, &newline] {
        for alg in ["hmac-sha2-256", "hmac-sha1", "hmac-sha2-512"] {
            let out = fastmac(&["tag", "--alg", alg, "--key-file", path], msg);
            assert_eq!(out.status.code(), Some(2), "{alg} {path}");
            assert!(stderr(&out).contains("holds hex text") && stderr(&out).contains("--key-hex-file"));
        }
        let args = ["tag", "--alg", "hmac-sha2-256", "--key-hex-file", path, "--allow-short-key"];
        let out = fastmac(&args, msg);
        let mut mac = fastmac::Algorithm::HmacSha256.new_mac(&hex::decode(text).unwrap()).unwrap();
        mac.update(msg);
        let mut tag = [0u8; 32];
        mac.finalize_reset_into(&[], &mut tag).unwrap();
        assert_eq!(stdout(&out), format!("{}\n", hex::encode(tag)), "{path}: {}", stderr(&out));
    }
}

#[test]
fn a_raw_key_file_of_the_wrong_length_says_the_length_wanted() {
    let dir = TempDir::new("short-key");
    let short = dir.write("short", &[0xa5; 15]);
    assert_bad(
        &["tag", "--alg", "umac-64", "--key-file", &short, "--nonce", NONCE],
        "wrong key length: expected 16 bytes, got 15 in key file",
    );
    let long = dir.write("long", &[0xa5; 17]);
    assert_bad(&["tag", "--alg", "badger-64", "--key-file", &long, "--nonce", NONCE], "expected 16 bytes, got 17");
}

/// Key files are read up to 4096 bytes: /dev/zero and a 3 GiB sparse file
/// are refused after one short read, not read whole.
#[test]
fn large_and_endless_key_files_are_refused_without_reading_them() {
    let dir = TempDir::new("big-key");
    let sparse = dir.path().join("sparse");
    std::fs::File::create(&sparse).unwrap().set_len(3 << 30).unwrap();
    for path in [sparse.to_str().unwrap(), "/dev/zero"] {
        assert_bad(&["tag", "--alg", "hmac-sha2-256", "--key-file", path], "is larger than 4096 bytes: not a key");
        assert_bad(&["tag", "--alg", "umac-64", "--key-hex-file", path, "--nonce", "00"], "larger than 4096 bytes");
    }
}

#[test]
fn an_hmac_key_shorter_than_listed_needs_allow_short_key() {
    let dir = TempDir::new("hmac-short");
    let empty = dir.write("empty", b"");
    for key in [&["--key", ""][..], &["--key-file", "/dev/null"], &["--key-file", &empty], &["--key", "00112233"]] {
        let args = [&["tag", "--alg", "hmac-sha2-256"][..], key].concat();
        assert_bad(&args, "wrong key length: expected at least 32 bytes");
        assert!(stderr(&fastmac(&args, b"msg")).contains("--allow-short-key"));
        let out = fastmac(&[&args[..], &["--allow-short-key"]].concat(), b"msg");
        let short = if key[1] == "00112233" { vec![0x00, 0x11, 0x22, 0x33] } else { Vec::new() };
        let mut mac = fastmac::Algorithm::HmacSha256.new_mac(&short).unwrap();
        mac.update(b"msg");
        let mut tag = [0u8; 32];
        mac.finalize_reset_into(&[], &mut tag).unwrap();
        assert_eq!(stdout(&out), format!("{}\n", hex::encode(tag)), "{args:?}");
    }
    // A longer HMAC key is fine (RFC 2104 hashes it down); a short UMAC key
    // is never.
    assert_eq!(fastmac(&["tag", "--alg", "hmac-sha2-256", "--key", &"ab".repeat(40)], b"m").status.code(), Some(0));
    assert_bad(
        &["tag", "--alg", "umac-64", "--key", &KEY[..30], "--nonce", NONCE, "--allow-short-key"],
        "--allow-short-key is for HMAC keys; umac-64 takes a key of exactly 16 bytes",
    );
}

/// Runs `fastmac args...` with stdin closed (`<&-`), through the shell.
fn with_closed_stdin(args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" <&-")
        .arg(env!("CARGO_BIN_EXE_fastmac"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdin_is_an_error_and_dev_null_the_empty_message() {
    let args = ["tag", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE];
    let out = with_closed_stdin(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot read stdin: it is closed"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let verify = ["verify", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, "--tag", &library_tag("umac-64", b"")];
    assert_eq!(with_closed_stdin(&verify).status.code(), Some(2));
    // A file named on the command line needs no stdin.
    let dir = TempDir::new("closed-stdin");
    let file = dir.write("msg", b"abc");
    assert_eq!(
        stdout(&with_closed_stdin(&[&args[..], &[&file]].concat())),
        format!("{}\n", library_tag("umac-64", b"abc"))
    );
    // `< /dev/null` (read-only) is the empty message.
    let null = std::process::Command::new(env!("CARGO_BIN_EXE_fastmac"))
        .args(args)
        .stdin(std::fs::File::open("/dev/null").unwrap())
        .output()
        .unwrap();
    assert_eq!(stdout(&null), format!("{}\n", library_tag("umac-64", b"")));
}

/// Runs `fastmac args...` with stdout closed (`>&-`), through the shell.
fn with_closed_stdout(args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(env!("CARGO_BIN_EXE_fastmac"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_loses_a_tag_with_status_1_and_dev_null_takes_it() {
    let dir = TempDir::new("closed-stdout");
    let file = dir.write("msg", b"abc");
    let tag = ["tag", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, &file];
    let out = with_closed_stdout(&tag);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot write stdout: it is closed"), "{}", stderr(&out));
    // `> /dev/null` (write only) is output thrown away on purpose.
    let null = std::process::Command::new(env!("CARGO_BIN_EXE_fastmac"))
        .args(tag)
        .stdout(std::fs::OpenOptions::new().write(true).open("/dev/null").unwrap())
        .output()
        .unwrap();
    assert_eq!(null.status.code(), Some(0), "{}", stderr(&null));
    // A listing's output is not a result: closed, it is quietly nothing.
    assert_eq!(with_closed_stdout(&["list"]).status.code(), Some(0));
}

#[test]
fn names_in_any_case_ssh_names_with_seq_and_the_nearest_for_a_slip() {
    let ssh_tag =
        |name| hex::encode(&*fastmac::ssh::SshMac::new(name, b"abcdefghijklmnop").unwrap().compute(3, b"pkt"));
    for alg in ["UMAC-64@OPENSSH.COM", "Umac-64@OpenSSH.com", "umac-64@openssh.com"] {
        let out = fastmac(&["tag", "--alg", alg, "--key", KEY, "--seq", "3"], b"pkt");
        assert_eq!(stdout(&out), format!("{}\n", ssh_tag("umac-64@openssh.com")), "{alg}: {}", stderr(&out));
    }
    let out = fastmac(&["tag", "--alg", "UMAC-64", "--key", KEY, "--nonce", NONCE], b"abc");
    assert_eq!(stdout(&out), format!("{}\n", library_tag("umac-64", b"abc")));
    assert_bad(
        &["tag", "--alg", "umac64", "--key", KEY, "--nonce", NONCE],
        "unknown algorithm \"umac64\": did you mean umac-64?",
    );
    assert_bad(&["tag", "--alg", "hmac-sha256", "--key", KEY], "did you mean hmac-sha2-256?");
    assert_bad(
        &["tag", "--alg", "umac-64", "--key", KEY, "--seq", "1"],
        "umac-64 is not an SSH MAC name, and --seq takes one: its SSH names are umac-64@openssh.com and umac-64-etm@openssh.com",
    );
    assert_bad(
        &["tag", "--alg", "umac-64@openssh.com", "--key", KEY, "--nonce", NONCE],
        "is an SSH MAC: give the packet sequence number with --seq N",
    );
    assert_bad(
        &["tag", "--alg", "badger-64", "--key", KEY, "--seq", "1"],
        "badger-64 is not an SSH MAC name, and --seq takes one: it has no SSH form",
    );
}

#[test]
fn numbers_out_of_range_exit_2_in_the_tools_words() {
    for (args, message) in [
        (
            &["tag", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, "--threads", "0"][..],
            "0 is out of range: expected a whole number from 1 to 1024",
        ),
        (
            &["tag", "--alg", "umac-64", "--key", KEY, "--nonce", NONCE, "--threads", "x"],
            "expected a whole number from 1 to 1024",
        ),
        (
            &["tag", "--alg", "umac-64@openssh.com", "--key", KEY, "--seq", "4294967296"],
            "expected a whole number from 0 to 4294967295",
        ),
        (
            &["tag", "--alg", "umac-64@openssh.com", "--key", KEY, "--seq=-1"],
            "expected a whole number from 0 to 4294967295",
        ),
    ] {
        let out = fastmac(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("number would be zero") && !err.contains("invalid digit"), "Rust's wording: {err}");
    }
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
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    let expected: Vec<String> = fastmac::umac::Backend::ALL
        .into_iter()
        .filter(|b| b.is_supported())
        .map(|b| format!("{b}\tbadger: {}", b.badger_trees()))
        .collect();
    assert_eq!(lines, expected);
    let names: Vec<&str> = lines.iter().map(|line| line.split('\t').next().unwrap()).collect();
    assert_eq!(names.first().copied(), Some("portable"));
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
