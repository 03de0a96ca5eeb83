//! `fastmac tag` on files and stdin: the library's one-shot tag for every
//! algorithm, at lengths around the 1 KiB chunk, the 128 KiB read piece,
//! the 512 KiB from which files are mapped, the 1 MiB threshold of the
//! multi-core path and its 2 MiB units, on one thread and on several;
//! stdin as a pipe and as a redirected file (mapped or read from its
//! position, and left at its end); a file that changes size while it is
//! hashed gives a tag or a clear error or ends by SIGBUS, never a panic,
//! and a file truncated while mapped never gets a tag.

mod common;

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{TempDir, fastmac};
use fastmac::Algorithm;
use fastmac::ssh::SshMac;
use fastmac::umac::{AnyUmac, TAG_LENS};
use rand::{Rng, SeedableRng, rngs::StdRng};

const KIB: usize = 1024;
const PIECE: usize = 128 * KIB;
const MIB: usize = 1024 * KIB;
/// The smallest file that is mapped (src/source.rs `MAP_MIN`).
const MAP_MIN: usize = 512 * KIB;
const KEY: [u8; 16] = *b"abcdefghijklmnop";
/// The signal of an access to a mapped page past the end of its file.
const SIGBUS: i32 = 7;
const NONCE: &[u8] = b"bcdefghi";

/// Runs `fastmac args...` with `stdin` (a file: a redirect, as `< FILE`).
fn fastmac_with_stdin(args: &[&str], stdin: File) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fastmac"))
        .args(args)
        .env_remove("FASTMAC_BACKEND")
        .stdin(Stdio::from(stdin))
        .output()
        .expect("run fastmac")
}

fn tag_line(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn umac_tag(tag_len: usize, msg: &[u8]) -> String {
    format!("{}\n", hex::encode(AnyUmac::new(&KEY, tag_len).unwrap().mac(NONCE, msg).unwrap()))
}

fn random(len: usize, seed: u64) -> Vec<u8> {
    let mut data = vec![0u8; len];
    StdRng::seed_from_u64(seed).fill(&mut data[..]);
    data
}

#[test]
fn umac_tags_of_files_and_stdin_match_the_library_around_every_boundary() {
    let dir = TempDir::new("umac");
    let lengths = [
        0,
        1,
        KIB - 1,
        KIB,
        KIB + 1,
        PIECE - 1,
        PIECE,
        PIECE + 1,
        MAP_MIN - 1,
        MAP_MIN,
        MIB + 1,
        2 * MIB + KIB + 1,
        5 * MIB + 17,
    ];
    let data = random(5 * MIB + 17, 7);
    let key = hex::encode(KEY);
    let nonce = hex::encode(NONCE);
    for len in lengths {
        let msg = &data[..len];
        let path = dir.write(&format!("msg-{len}"), msg);
        for tag_len in TAG_LENS {
            let expected = umac_tag(tag_len, msg);
            let alg = format!("umac-{}", 8 * tag_len);
            for threads in ["1", "2", "3"] {
                let args = ["tag", "--alg", &alg, "--key", &key, "--nonce", &nonce, "--threads", threads];
                let context = format!("{alg} len {len} threads {threads}");
                assert_eq!(tag_line(&fastmac(&[&args[..], &[&path]].concat(), b"")), expected, "{context}, file");
                assert_eq!(
                    tag_line(&fastmac_with_stdin(&args, File::open(&path).unwrap())),
                    expected,
                    "{context}, < file"
                );
            }
            let args = ["tag", "--alg", &alg, "--key", &key, "--nonce", &nonce];
            assert_eq!(tag_line(&fastmac(&args, msg)), expected, "{alg} len {len}, stdin pipe");
        }
    }
}

#[test]
fn other_algorithms_tag_files_and_stdin_as_the_library_does() {
    let dir = TempDir::new("others");
    let data = random(2 * MIB + KIB + 1, 11);
    for len in [0, KIB + 1, PIECE + 1, 2 * MIB + KIB + 1] {
        let msg = &data[..len];
        let path = dir.write(&format!("msg-{len}"), msg);
        for &alg in Algorithm::ALL {
            let info = alg.info();
            let key: Vec<u8> = (0..info.key_len).map(|i| i as u8).collect();
            let nonce = vec![0x6e; info.max_nonce_len.min(8).max(info.min_nonce_len)];
            let mut mac = alg.new_mac(&key).unwrap();
            mac.update(msg);
            let mut tag = vec![0; mac.tag_len()];
            mac.finalize_reset_into(&nonce, &mut tag).unwrap();
            let expected = format!("{}\n", hex::encode(tag));
            let key = hex::encode(&key);
            let nonce = hex::encode(&nonce);
            let mut args = vec!["tag", "--alg", info.name, "--key", &key];
            if !nonce.is_empty() {
                args.extend(["--nonce", &nonce]);
            }
            assert_eq!(
                tag_line(&fastmac(&[&args[..], &[path.as_str()]].concat(), b"")),
                expected,
                "{} len {len}, file",
                info.name
            );
            assert_eq!(tag_line(&fastmac(&args, msg)), expected, "{} len {len}, stdin", info.name);
        }
    }
}

#[test]
fn ssh_umac_of_a_large_file_matches_the_library() {
    let dir = TempDir::new("ssh");
    let msg = random(3 * MIB + 5, 13);
    let path = dir.write("packet", &msg);
    for name in ["umac-64@openssh.com", "umac-128-etm@openssh.com"] {
        let expected = format!("{}\n", hex::encode(SshMac::new(name, &KEY).unwrap().compute(9, &msg)));
        let args = ["tag", "--alg", name, "--key", &hex::encode(KEY), "--seq", "9", path.as_str()];
        assert_eq!(tag_line(&fastmac(&args, b"")), expected, "{name}");
    }
}

#[test]
fn redirected_stdin_is_read_from_its_position() {
    let dir = TempDir::new("position");
    let msg = random(3 * MIB + 100, 17);
    let path = dir.write("msg", &msg);
    let mut stdin = File::open(&path).unwrap();
    stdin.seek(SeekFrom::Start(1000)).unwrap();
    let args = ["tag", "--alg", "umac-64", "--key", &hex::encode(KEY), "--nonce", &hex::encode(NONCE)];
    assert_eq!(tag_line(&fastmac_with_stdin(&args, stdin)), umac_tag(8, &msg[1000..]));
}

#[test]
fn verify_reads_files_the_same_way() {
    let dir = TempDir::new("verify");
    let msg = random(4 * MIB + 3, 19);
    let path = dir.write("msg", &msg);
    let tag = umac_tag(16, &msg);
    for threads in ["1", "2"] {
        let args = [
            "verify",
            "--alg",
            "umac-128",
            "--key",
            &hex::encode(KEY),
            "--nonce",
            &hex::encode(NONCE),
            "--threads",
            threads,
            "--tag",
        ];
        let good = fastmac(&[&args[..], &[tag.trim(), path.as_str()]].concat(), b"");
        assert_eq!(good.status.code(), Some(0), "threads {threads}: {}", String::from_utf8_lossy(&good.stderr));
        let wrong = umac_tag(16, &msg[1..]);
        let bad = fastmac(&[&args[..], &[wrong.trim(), path.as_str()]].concat(), b"");
        assert_eq!(bad.status.code(), Some(1), "threads {threads}");
    }
}

#[test]
fn zero_threads_is_a_usage_error() {
    let out = fastmac(&["tag", "--alg", "umac-64", "--key", &hex::encode(KEY), "--nonce", "00", "--threads", "0"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--threads"));
}

/// Rewrites `path` over and over, alternately shorter and longer, until
/// `stop` is set.
fn keep_resizing(path: &Path, stop: &std::sync::atomic::AtomicBool) {
    let long = random(12 * MIB, 23);
    let mut round = 0usize;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        let len = if round.is_multiple_of(2) { MIB + round % 7 * 100_000 } else { long.len() };
        file.set_len(len as u64).unwrap();
        file.write_all(&long[..len]).unwrap();
        round += 1;
    }
}

#[test]
fn a_file_that_changes_size_while_read_gives_a_tag_or_a_clear_error() {
    let dir = TempDir::new("resize");
    let path = dir.write("moving", &random(12 * MIB, 23));
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| keep_resizing(Path::new(&path), &stop));
        for threads in ["1", "2", "3"].repeat(8) {
            let args = ["tag", "--alg", "umac-128", "--key", &hex::encode(KEY), "--nonce", "00", "--threads", threads];
            let out = fastmac(&[&args[..], &[path.as_str()]].concat(), b"");
            let stderr = String::from_utf8_lossy(&out.stderr);
            match (out.status.code(), out.status.signal()) {
                (Some(0), _) => assert_eq!(out.stdout.len(), 33, "a 16-byte tag in hex and a newline"),
                (Some(2), _) => {
                    assert!(stderr.starts_with("fastmac: error: cannot read") && stderr.contains("shrank"), "{stderr}")
                }
                // Truncated while mapped (src/source.rs): no tag printed.
                (None, Some(SIGBUS)) => assert!(out.stdout.is_empty()),
                other => panic!("status {other:?}: {stderr}"),
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

#[test]
fn stdin_is_left_at_its_end_as_a_read_would_leave_it() {
    let dir = TempDir::new("stdin-end");
    for len in [100, 3 * MIB] {
        let path = dir.write(&format!("msg-{len}"), &random(len, 29));
        // The shell's `cat` after fastmac reads the same open file: nothing
        // is left for it.
        let out = Command::new("sh")
            .arg("-c")
            .arg("\"$0\" tag --alg umac-64 --key 6162636465666768696a6b6c6d6e6f70 --nonce 00; cat")
            .arg(env!("CARGO_BIN_EXE_fastmac"))
            .stdin(File::open(&path).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.stdout.len(), 17, "the tag line and nothing after it: {len} bytes");
    }
}

/// Whether process `pid` has `path` mapped (its /proc maps name the file).
fn maps(pid: u32, path: &Path) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/maps")).is_ok_and(|m| m.contains(path.to_str().unwrap()))
}

/// A large file, truncated to nothing as soon as fastmac has it mapped:
/// the process ends by SIGBUS and prints no tag. If the machine is so
/// loaded that fastmac finished before the truncation, the tag it printed
/// must be the right one; that is retried a few times, and at least one
/// truncation must land while the file is mapped.
#[test]
fn a_file_truncated_while_mapped_gets_no_tag() {
    let dir = TempDir::new("truncate");
    let path = dir.path().join("sparse");
    let len = 1u64 << 30;
    let mut killed = 0;
    for (attempt, threads) in ["1", "2", "1", "2", "1", "2"].into_iter().enumerate() {
        // Sparse: 1 GiB of zeros that cost no disk and take a while to hash.
        File::create(&path).unwrap().set_len(len).unwrap();
        let args = ["tag", "--alg", "umac-128", "--key", &hex::encode(KEY), "--nonce", &hex::encode(NONCE)];
        let mut command = Command::new(env!("CARGO_BIN_EXE_fastmac"));
        command.args(args).args(["--threads", threads]).stdout(Stdio::piped()).stderr(Stdio::piped());
        // Named, or redirected to stdin.
        if attempt % 3 == 2 {
            command.stdin(File::open(&path).unwrap());
        } else {
            command.arg(&path).stdin(Stdio::null());
        }
        let child = command.spawn().unwrap();
        while !maps(child.id(), &path) && child_running(child.id()) {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        File::options().write(true).open(&path).unwrap().set_len(0).unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        match (out.status.code(), out.status.signal()) {
            (None, Some(SIGBUS)) => {
                assert!(out.stdout.is_empty(), "a tag after SIGBUS");
                killed += 1;
            }
            (Some(0), _) => {
                let zeros = vec![0u8; len as usize];
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    umac_tag(16, &zeros),
                    "finished before the truncation"
                );
            }
            other => panic!("status {other:?}: {stderr}"),
        }
    }
    eprintln!("{killed} of 6 runs truncated while mapped, ended by SIGBUS");
    assert!(killed > 0, "no truncation landed while the file was mapped");
}

/// Whether `pid` is still running (not yet a zombie).
fn child_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| !stat.contains(") Z "))
}
