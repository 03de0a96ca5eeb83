//! `fastmac gears`: the table, and send / attack / recv as separate
//! processes over UDP on 127.0.0.1, each bounded in time.

use std::io::{BufRead, BufReader};
use std::net::UdpSocket;
use std::process::{Child, Command, Output, Stdio};

const SECRET: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

fn fastmac() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fastmac"))
}

/// A port no server holds, for the commands that are refused before they
/// bind or send.
fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Spawns `fastmac gears SUBCOMMAND --listen 127.0.0.1:0 args...` and
/// waits for its first line, "listening on 127.0.0.1:PORT: ...": the port
/// the kernel gave it, bound before the line is written, so nothing can
/// take it in between and datagrams sent from then on arrive.
fn start_listening(subcommand: &str, args: &[&str]) -> (Child, u16) {
    let mut child = fastmac()
        .args(["gears", subcommand, "--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut first).unwrap();
    let port = first
        .strip_prefix("listening on 127.0.0.1:")
        .and_then(|rest| rest.split(':').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("gears {subcommand}: no listening line with a port: {first:?}"));
    assert_ne!(port, 0, "{first}");
    (child, port)
}

/// Starts `fastmac gears recv` on a free port and waits until it listens.
fn start_recv(extra: &[&str]) -> (Child, u16) {
    let mut args = vec!["--secret", SECRET, "--idle-ms", "1500", "--max-secs", "10"];
    args.extend_from_slice(extra);
    start_listening("recv", &args)
}

fn counter(text: &str, name: &str) -> u64 {
    let key = format!("{name}=");
    let at = text.find(&key).unwrap_or_else(|| panic!("no {name} in {text}")) + key.len();
    text[at..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

fn finish(child: Child) -> (String, Output) {
    let out = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), out)
}

#[test]
fn table_lists_every_gear_and_draws_the_chart() {
    let svg = std::env::temp_dir().join(format!("gears-{}.svg", std::process::id()));
    let out = fastmac().args(["gears", "table", "--round-ms", "3", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for gear in ["U128", "U96", "U64", "U32", "H128", "B32", "B160", "S-8", "S-64", "S-512"] {
        assert!(text.lines().any(|l| l.starts_with(gear)), "{gear} missing:\n{text}");
    }
    assert!(text.contains("2^-60 per forgery") && text.contains("not a forgery bound"));
    assert!(text.contains("16-byte field") && text.contains("depth 1"));
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.trim_end().ends_with("</svg>"));
    std::fs::remove_file(svg).ok();
}

#[test]
fn send_and_recv_over_loopback() {
    let (recv, port) = start_recv(&["--count", "3000"]);
    let sent = fastmac()
        .args(["gears", "send", "--secret", SECRET, "--to", &format!("127.0.0.1:{port}")])
        .args(["--count", "3000", "--rate", "5000", "--sizes", "64,576,1400", "--rekey-packets", "1000"])
        .output()
        .unwrap();
    assert!(sent.status.success(), "{}", String::from_utf8_lossy(&sent.stderr));
    assert!(String::from_utf8_lossy(&sent.stdout).contains("sent=3000"));
    let (text, out) = finish(recv);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let received = counter(&text, "received");
    assert!(received > 0 && received <= 3000, "{text}");
    assert_eq!(counter(&text, "delivered"), received, "{text}");
    assert_eq!(counter(&text, "epoch_changes"), 2, "{text}");
    assert!(text.contains("conservation received = delivered + dropped_overload + rejected_*: holds"), "{text}");
}

#[test]
fn attack_never_gets_a_forgery_through() {
    let (recv, victim) = start_recv(&["--floor", "u64"]);
    let victim = format!("127.0.0.1:{victim}");
    let (attack, relay) = start_listening("attack", &["--to", &victim, "--per-packet", "3", "--idle-ms", "1000"]);
    let sent = fastmac()
        .args(["gears", "send", "--secret", SECRET, "--to", &format!("127.0.0.1:{relay}")])
        .args(["--count", "1000", "--rate", "2000", "--sizes", "64,1400"])
        .output()
        .unwrap();
    assert!(sent.status.success());
    let (attack_text, _) = finish(attack);
    let (text, out) = finish(recv);
    assert!(out.status.success());
    let injected = counter(&attack_text, "injected");
    assert!(injected > 0, "{attack_text}");
    // Every delivered datagram is genuine: at most the 1000 sent, each once.
    assert!(counter(&text, "delivered") <= 1000, "{text}");
    let rejected =
        counter(&text, "rejected_auth") + counter(&text, "rejected_replay") + counter(&text, "rejected_format");
    assert!(rejected > 0, "{text}");
    assert_eq!(counter(&text, "delivered") + counter(&text, "dropped_overload") + rejected, counter(&text, "received"));
    println!("{attack_text}{text}");
}

#[test]
fn only_loopback_addresses_are_accepted() {
    let out = fastmac()
        .args(["gears", "send", "--secret", SECRET, "--to", "10.0.0.1:9000", "--count", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only 127.0.0.1"));
    let out = fastmac().args(["gears", "recv", "--secret", "00", "--listen", "127.0.0.1:1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("key length"));
}

/// Runs `fastmac gears args...` to its end and returns its status and
/// stderr.
fn refused(args: &[&str]) -> String {
    let out = fastmac().arg("gears").args(args).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} did work before refusing");
    stderr
}

#[test]
fn work_options_are_bounded_before_any_work() {
    let here = format!("127.0.0.1:{}", free_port());
    let there = format!("127.0.0.1:{}", free_port());
    let cases: [(&[&str], &str); 10] = [
        (&["attack", "--listen", &here, "--to", &here], "is --listen's own address"),
        (
            &["attack", "--listen", &here, "--to", &there, "--per-packet", "99999999999"],
            "expected a whole number from 0 to 1000",
        ),
        (&["attack", "--listen", &here, "--to", &there, "--idle-ms", "0"], "expected a whole number from 1 to 3600000"),
        (
            &["send", "--secret", SECRET, "--to", &there, "--rekey-packets", "0"],
            "expected a whole number from 1 to 4294967296",
        ),
        (
            &["send", "--secret", SECRET, "--to", &there, "--rfc-prefix", "--to", &here],
            "--rfc-prefix is unicast only: one --to, not 2",
        ),
        (&["send", "--secret", SECRET, "--to", &there, "--sizes", "65536"], "expected a size from 0 to 65535 bytes"),
        (&["send", "--secret", SECRET, "--to", "127.0.0.1:0"], "port 0"),
        (&["table", "--round-ms", "0"], "0 is out of range: expected a whole number from 1 to 10000"),
        (&["recv", "--secret", SECRET, "--listen", &here, "--budget", "0"], "expected a number above 0"),
        (
            &["recv", "--secret", SECRET, "--listen", &here, "--max-secs", "0"],
            "expected a whole number from 1 to 86400",
        ),
    ];
    for (args, message) in cases {
        let stderr = refused(args);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn socket_errors_name_the_call_and_the_address() {
    // A port this test holds: binding it again fails.
    let held = UdpSocket::bind("127.0.0.1:0").unwrap();
    let taken = held.local_addr().unwrap().to_string();
    let other = format!("127.0.0.1:{}", free_port());
    let expected = format!("cannot bind {taken}: ");
    let stderr = refused(&["recv", "--secret", SECRET, "--listen", &taken]);
    assert!(stderr.contains(&expected), "{stderr}");
    let stderr = refused(&["attack", "--listen", &taken, "--to", &other]);
    assert!(stderr.contains(&expected), "{stderr}");
}
