//! The CLI in a pipeline: a closed stdout (`fastmac list | head -1`) ends a
//! listing quietly with status 0, and `tag` and `check`, whose output is
//! their result, quietly with status 1; never a panic. An unwritable
//! `--out` or `--svg` fails before any measuring; unknown names get the
//! nearest known ones; an HMAC given a nonce is told it takes none.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `fastmac args...` with its stdout a pipe whose reading end is
/// already closed, so its first write fails with EPIPE.
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_fastmac"))
        .args(args)
        .env_remove("FASTMAC_BACKEND")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fastmac");
    child.wait_with_output().expect("wait for fastmac")
}

fn assert_quiet_success(args: &[&str], out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe") && !stderr.contains("error"),
        "{args:?}: {stderr}"
    );
}

/// The output of `tag` or `check` is lost: status 1, nothing on stderr
/// (coreutils' behaviour: quiet, and not a success).
fn assert_quiet_failure(args: &[&str], out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("fastmac-pipeline-{}-{name}", std::process::id()))
}

#[test]
fn list_into_a_closed_pipe_ends_quietly() {
    let args = ["list"];
    assert_quiet_success(&args, &with_closed_stdout(&args));
}

const KEY32: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

#[test]
fn tag_into_a_closed_pipe_fails_quietly() {
    let args = ["tag", "--alg", "hmac-sha2-256", "--key", KEY32, "/dev/null"];
    assert_quiet_failure(&args, &with_closed_stdout(&args));
    let args = ["tag", "--alg", "hmac-sha2-256", "--key", KEY32, "/dev/null", "/dev/null", "-"];
    assert_quiet_failure(&args, &with_closed_stdout(&args));
}

#[test]
fn check_into_a_closed_pipe_fails_quietly() {
    // A list whose one file is OK: only the lost output fails.
    let list = temp("list");
    let mut mac = fastmac::Algorithm::HmacSha256.new_mac(&hex::decode(KEY32).unwrap()).unwrap();
    let mut tag = [0u8; 32];
    mac.finalize_reset_into(&[], &mut tag).unwrap();
    std::fs::write(&list, format!("{}  /dev/null\n", hex::encode(tag))).unwrap();
    let args = ["check", "--alg", "hmac-sha2-256", "--key", KEY32, list.to_str().unwrap()];
    let ok = Command::new(env!("CARGO_BIN_EXE_fastmac")).args(args).output().unwrap();
    assert_eq!((ok.status.code(), &ok.stdout[..]), (Some(0), &b"/dev/null: OK\n"[..]));
    assert_quiet_failure(&args, &with_closed_stdout(&args));
    std::fs::remove_file(&list).unwrap();
}

#[test]
fn tag_of_a_large_file_on_several_threads_into_a_closed_pipe_fails_quietly() {
    let file = temp("large");
    std::fs::write(&file, vec![0x5a; 5 << 20]).unwrap();
    for alg in ["umac-128", "hmac-sha2-256"] {
        let args = [
            "tag",
            "--alg",
            alg,
            "--key",
            "000102030405060708090a0b0c0d0e0f",
            "--threads",
            "2",
            file.to_str().unwrap(),
        ];
        let args = if alg.starts_with("umac") {
            [&args[..], &["--nonce", "00"]].concat()
        } else {
            [&args[..], &["--allow-short-key"]].concat()
        };
        assert_quiet_failure(&args, &with_closed_stdout(&args));
    }
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn bench_table_and_json_into_a_closed_pipe_end_quietly() {
    for json in [false, true] {
        let mut args = vec!["bench", "--algs", "umac-64", "--sizes", "32", "--seconds", "0.01"];
        if json {
            args.push("--json");
        }
        assert_quiet_success(&args, &with_closed_stdout(&args));
    }
}

#[test]
fn bench_quick_into_a_closed_pipe_ends_quietly_and_still_writes_the_folder() {
    let dir = temp("quick");
    let dir_text = dir.to_str().unwrap().to_owned();
    let args = ["bench", "--quick", "--out", &dir_text];
    assert_quiet_success(&args, &with_closed_stdout(&args));
    assert!(dir.join("index.html").exists() && dir.join("results.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gears_table_into_a_closed_pipe_ends_quietly() {
    let args = ["gears", "table", "--round-ms", "1"];
    assert_quiet_success(&args, &with_closed_stdout(&args));
}

#[test]
fn a_reader_that_stops_after_one_line_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fastmac"))
        .arg("list")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fastmac");
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_quiet_success(&["list"], &out);
    assert!(first.starts_with(b"algorithm"));
}

#[test]
fn an_unwritable_out_fails_before_measuring() {
    let file = temp("a-file");
    std::fs::write(&file, b"").unwrap();
    let out_dir = file.join("report");
    let out =
        Command::new(env!("CARGO_BIN_EXE_fastmac")).args(["bench", "--quick", "--out"]).arg(&out_dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("cannot write {}", out_dir.display())), "{stderr}");
    // Nothing was measured: no progress, no table.
    assert!(!stderr.contains("MACs at") && out.stdout.is_empty(), "{stderr}");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn an_unwritable_svg_fails_before_the_gear_table_is_measured() {
    let svg = temp("no-such-dir").join("gears.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_fastmac")).args(["gears", "table", "--svg"]).arg(&svg).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("cannot write {}", svg.display())), "{stderr}");
    assert!(out.stdout.is_empty(), "the table was measured first");
}

fn fails_with(args: &[&str], expected: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_fastmac")).args(args).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for text in expected {
        assert!(stderr.contains(text), "{args:?}: {text:?} not in {stderr}");
    }
}

#[test]
fn an_unknown_name_gets_the_nearest_known_ones_or_all_of_them() {
    let key = "6162636465666768696a6b6c6d6e6f70";
    fails_with(
        &["tag", "--alg", "hmac-sha256", "--key", key],
        &["unknown algorithm \"hmac-sha256\": did you mean hmac-sha2-256?", "`fastmac list` shows every MAC"],
    );
    fails_with(
        &["tag", "--alg", "umac-65@openssh.com", "--key", key, "--seq", "1"],
        &["unknown SSH MAC \"umac-65@openssh.com\": did you mean umac-64@openssh.com?"],
    );
    fails_with(
        &["bench", "--algs", "hmac-sha256"],
        &["unknown benchmark algorithm \"hmac-sha256\": did you mean hmac-sha2-256?"],
    );
    // Nothing near: every known name.
    fails_with(
        &["tag", "--alg", "sha3", "--key", key],
        &["unknown algorithm \"sha3\": known: umac-32,", "badger-160", "umac-128-etm@openssh.com"],
    );
    fails_with(&["bench", "--algs", "md4"], &["unknown benchmark algorithm \"md4\": known:", "poly1305", "read-limit"]);
}

#[test]
fn an_hmac_given_a_nonce_is_told_it_takes_none() {
    fails_with(
        &["tag", "--alg", "hmac-sha2-256", "--key", "00112233", "--nonce", "0001"],
        &["hmac-sha2-256 takes no nonce", "drop --nonce"],
    );
}
