//! Several files in one `fastmac tag`, one line each, under nonces that
//! count up from `--nonce` (never one twice); `fastmac check` reads the
//! lines back and reports each file OK or FAILED with the right exit
//! status, as `sha256sum -c` does.

mod common;

use std::process::{Command, Output, Stdio};

use common::{TempDir, fastmac};
use fastmac::Algorithm;
use fastmac::ssh::SshMac;

const KEY: &str = "6162636465666768696a6b6c6d6e6f70";
const KEY32: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The library's tag of `msg` under `alg`, the test key and `nonce`.
fn library_tag(alg: Algorithm, key: &str, nonce: &[u8], msg: &[u8]) -> String {
    let mut mac = alg.new_mac(&hex::decode(key).unwrap()).unwrap();
    mac.update(msg);
    let mut tag = vec![0u8; mac.tag_len()];
    mac.finalize_reset_into(nonce, &mut tag).unwrap();
    hex::encode(tag)
}

fn check(args: &[&str], stdin: &[u8]) -> Output {
    fastmac(&[&["check"], args].concat(), stdin)
}

#[test]
fn several_files_get_one_line_each_under_nonces_counting_up() {
    let dir = TempDir::new("lines");
    let files: Vec<(String, Vec<u8>)> = [&b"hello"[..], b"", b"world", &[7u8; 300_000], &[9u8; 3 << 20]]
        .iter()
        .enumerate()
        .map(|(i, msg)| (dir.write(&format!("f{i}"), msg), msg.to_vec()))
        .collect();
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    for (alg, first) in
        [(Algorithm::Umac64, [0x00, 0xfe]), (Algorithm::Umac128, [0x01, 0x02]), (Algorithm::Badger96, [0, 1])]
    {
        let first =
            if alg == Algorithm::Badger96 { vec![0, 0, 0, 0, 0, 0, first[0], first[1]] } else { first.to_vec() };
        let name = alg.info().name;
        let out = fastmac(
            &[&["tag", "--alg", name, "--key", KEY, "--nonce", &hex::encode(&first)], &names[..]].concat(),
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), files.len());
        let mut nonce = first.clone();
        for ((path, msg), line) in files.iter().zip(&lines) {
            let expected = format!("{} {}  {path}", library_tag(alg, KEY, &nonce, msg), hex::encode(&nonce));
            assert_eq!(line, &expected, "{name}");
            // The next file's nonce: one more, big-endian, same length.
            for byte in nonce.iter_mut().rev() {
                *byte = byte.wrapping_add(1);
                if *byte != 0 {
                    break;
                }
            }
        }
        let list = dir.write(&format!("{name}.list"), &out.stdout);
        let ok = check(&["--alg", name, "--key", KEY, &list], b"");
        assert_eq!(ok.status.code(), Some(0), "{name}: {}", text(&ok.stderr));
        assert_eq!(text(&ok.stdout), names.iter().map(|n| format!("{n}: OK\n")).collect::<String>());
    }
}

#[test]
fn check_reports_each_file_ok_or_failed_with_the_right_status() {
    let dir = TempDir::new("verdicts");
    let [a, b, c] = ["a", "b", "c"].map(|n| dir.write(n, n.as_bytes()));
    let out = fastmac(&["tag", "--alg", "umac-96", "--key", KEY, "--nonce", "10", &a, &b, &c], b"");
    let list = dir.write("list", &out.stdout);
    let run = || check(&["--alg", "umac-96", "--key", KEY, &list], b"");
    assert_eq!(run().status.code(), Some(0));
    // One file changed, one gone: each reported, status 1, the rest OK.
    std::fs::write(&b, b"B").unwrap();
    std::fs::remove_file(&c).unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), format!("{a}: OK\n{b}: FAILED\n{c}: FAILED open or read\n"));
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&format!("cannot read {c}: No such file")), "{stderr}");
    assert!(stderr.contains("2 of 3 files FAILED"), "{stderr}");
    // The wrong key fails every file.
    let wrong_key = KEY.replace("61", "71");
    let wrong = check(&["--alg", "umac-96", "--key", &wrong_key, &list], b"");
    assert_eq!(wrong.status.code(), Some(1));
    assert!(!text(&wrong.stdout).contains(": OK"));
}

#[test]
fn malformed_lines_are_bad_input_and_the_others_are_still_checked() {
    let dir = TempDir::new("malformed");
    let a = dir.write("a", b"a");
    let tag = library_tag(Algorithm::Umac64, KEY, &[5], b"a");
    let list = format!(
        "{tag} 05  {a}\nnot a line\n{tag}  {a}\n{tag} 0g  {a}\n{} 05  {a}\n{tag} {}  {a}\n{tag} 05  {a}\n",
        &tag[..8],
        "00".repeat(17)
    );
    let path = dir.write("list", list.as_bytes());
    let out = check(&["--alg", "umac-64", "--key", KEY, &path], b"");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{a}: OK\n{a}: OK\n"));
    let stderr = text(&out.stderr);
    for (line, why) in [
        (2, "expected TAG [NONCE]  NAME"),
        (3, "no nonce"),
        (4, "the nonce is not hex: invalid character at position 1"),
        (5, "wrong tag length: expected 8 bytes, got 4"),
        (6, "wrong nonce length: expected 1 to 16 bytes, got 17"),
    ] {
        assert!(stderr.contains(&format!("{path}:{line}: {why}")), "line {line}: {stderr}");
    }
}

#[test]
fn nonces_never_repeat_a_series_that_would_wrap_is_refused_before_reading() {
    let dir = TempDir::new("wrap");
    let a = dir.write("a", b"a");
    // Two files from ff in one byte would need 0x100: refused, and nothing
    // was read (the missing file is not reported).
    let out = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "ff", &a, "/no/such/file"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("2 files need 2 --nonce values") && !stderr.contains("/no/such/file"), "{stderr}");
    assert!(out.stdout.is_empty());
    // From 00ff in two bytes: 00ff, 0100.
    let out = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "00ff", &a, &a], b"");
    let nonces: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().map(|l| &l[17..21]).collect();
    assert_eq!(nonces, ["00ff", "0100"]);
    // An SSH MAC's sequence numbers end at 2^32 - 1.
    let out = fastmac(&["tag", "--alg", "umac-64@openssh.com", "--key", KEY, "--seq", "4294967295", &a, &a], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--seq"));
    // stdin can be one of the files, once.
    let out = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "01", "-", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("at most once"));
}

#[test]
fn an_unreadable_file_among_several_is_reported_and_the_others_tagged() {
    let dir = TempDir::new("unreadable");
    let a = dir.write("a", b"a");
    let out = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "01", &a, "/no/such/file", &a], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read /no/such/file"));
    // The missing file's nonce (02) is skipped, never reused.
    let lines = text(&out.stdout);
    assert!(lines.contains(" 01  ") && lines.contains(" 03  ") && !lines.contains(" 02  "), "{lines}");
}

#[test]
fn one_file_prints_the_bare_tag_or_with_names_a_line() {
    let dir = TempDir::new("names");
    let a = dir.write("a", b"abc");
    let tag = library_tag(Algorithm::Umac64, KEY, b"bcdefghi", b"abc");
    let bare = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "6263646566676869", &a], b"");
    assert_eq!(text(&bare.stdout), format!("{tag}\n"));
    let named = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "6263646566676869", "--names", &a], b"");
    assert_eq!(text(&named.stdout), format!("{tag} 6263646566676869  {a}\n"));
    // stdin is "-".
    let stdin = fastmac(&["tag", "--alg", "umac-64", "--key", KEY, "--nonce", "6263646566676869", "--names"], b"abc");
    assert_eq!(text(&stdin.stdout), format!("{tag} 6263646566676869  -\n"));
}

#[test]
fn hmac_lines_have_no_nonce_and_ssh_lines_a_sequence_number() {
    let dir = TempDir::new("hmac-ssh");
    let [a, b] = ["a", "b"].map(|n| dir.write(n, n.as_bytes()));
    let out = fastmac(&["tag", "--alg", "hmac-sha2-256", "--key", KEY32, &a, &b], b"");
    let expected = format!(
        "{}  {a}\n{}  {b}\n",
        library_tag(Algorithm::HmacSha256, KEY32, &[], b"a"),
        library_tag(Algorithm::HmacSha256, KEY32, &[], b"b")
    );
    assert_eq!(text(&out.stdout), expected);
    let list = dir.write("hmac.list", &out.stdout);
    assert_eq!(check(&["--alg", "HMAC-SHA2-256", "--key", KEY32, &list], b"").status.code(), Some(0));

    for name in ["umac-128-etm@openssh.com", "hmac-sha2-256"] {
        let key = if name.starts_with("umac") { KEY } else { KEY32 };
        let out = fastmac(&["tag", "--alg", name, "--key", key, "--seq", "41", &a, &b], b"");
        let mut mac = SshMac::new(name, &hex::decode(key).unwrap()).unwrap();
        let expected = format!(
            "{} 41  {a}\n{} 42  {b}\n",
            hex::encode(&*mac.compute(41, b"a")),
            hex::encode(&*mac.compute(42, b"b"))
        );
        assert_eq!(text(&out.stdout), expected, "{name}: {}", text(&out.stderr));
        let list = dir.write("ssh.list", &out.stdout);
        let ok = check(&["--alg", name, "--key", key, &list], b"");
        assert_eq!(ok.status.code(), Some(0), "{name}: {}", text(&ok.stderr));
    }
}

#[test]
fn names_with_spaces_backslashes_and_newlines_round_trip() {
    let dir = TempDir::new("odd-names");
    let names = ["two  spaces", "back\\slash", "new\nline", " leading"];
    let paths: Vec<String> = names.iter().map(|n| dir.write(n, n.as_bytes())).collect();
    let out = fastmac(
        &[
            &["tag", "--alg", "umac-32", "--key", KEY, "--nonce", "01"],
            &paths.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ]
        .concat(),
        b"",
    );
    let listing = text(&out.stdout);
    assert_eq!(listing.lines().count(), names.len(), "{listing}");
    assert!(listing.lines().nth(1).unwrap().starts_with('\\') && listing.lines().nth(2).unwrap().starts_with('\\'));
    let list = dir.write("list", &out.stdout);
    let ok = check(&["--alg", "umac-32", "--key", KEY, &list], b"");
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert_eq!(text(&ok.stdout).matches(": OK").count(), names.len());
    assert!(text(&ok.stdout).contains("\\n"), "the newline is escaped in the verdict too");
}

#[test]
fn the_list_from_stdin_empty_lists_and_bad_keys() {
    let dir = TempDir::new("stdin-list");
    let a = dir.write("a", b"a");
    let line = format!("{} 07  {a}\n", library_tag(Algorithm::Umac64, KEY, &[7], b"a"));
    let out = check(&["--alg", "umac-64", "--key", KEY], line.as_bytes());
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), format!("{a}: OK\n")));
    let out = check(&["--alg", "umac-64", "--key", KEY, "-"], line.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    // A line naming stdin while stdin holds the list.
    let out = check(&["--alg", "umac-64", "--key", KEY], format!("{} 07  -\n", &line[..16]).as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("which holds the list"));
    let out = check(&["--alg", "umac-64", "--key", KEY], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no lines to check in stdin"));
    let out = check(&["--alg", "umac-64", "--key", "00"], line.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("wrong key length: expected 16 bytes, got 1"));
    let out = check(&["--alg", "umac64", "--key", KEY], line.as_bytes());
    assert!(text(&out.stderr).contains("did you mean umac-64?"));
    // A list that is not one (no newline in 16 KiB) is not read on.
    let out = check(&["--alg", "umac-64", "--key", KEY, "/dev/zero"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/dev/zero:1: longer than 16384 bytes"), "{}", text(&out.stderr));
}

/// `check` with its list on a closed stdin (`<&-`): an error, not an empty
/// list.
#[test]
fn a_closed_stdin_is_no_list() {
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" check --alg umac-64 --key 6162636465666768696a6b6c6d6e6f70 <&-")
        .arg(env!("CARGO_BIN_EXE_fastmac"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read stdin: it is closed"), "{}", text(&out.stderr));
}
