//! The real OpenSSH on 127.0.0.1 for the session tests, through the
//! repository's one sshd harness, `tests/ssh/sshd_harness.py` (docs/ssh.md
//! section 1.4), run as a script: `keys` makes the host and client keys,
//! `serve` runs a private `sshd` offering one MAC until its standard input
//! closes, `client-argv` gives the `ssh` command line (which checks the
//! harness's host key), and `negotiated` reads the cipher and MAC of every
//! key exchange from an OpenSSH debug log. Every process is bounded in time
//! and stopped when the test ends.

#![allow(dead_code)] // each test file uses its own part

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use fastmac_russh::{ClientSetup, load_private_key, load_public_key, serve_one, server_config};
use russh::keys::{PrivateKey, PublicKey};
use russh::mac;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The harness's default `RekeyLimit 768K` (sshd and ssh), on russh's side
/// too: every session rekeys many times.
pub const REKEY_BYTES: usize = 768 << 10;

/// Bytes sent each way in a session, as in the repository's other session
/// tests (with the harness's rekey limit, docs/ssh.md section 1.4).
pub const PAYLOAD_BYTES: usize = 4 << 20;

/// How long a session or a refusal may take (the machine may be shared).
pub const STEP_TIMEOUT: Duration = Duration::from_secs(180);

fn harness_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/ssh/sshd_harness.py")
}

/// Runs the harness script with `args`; its one line of JSON.
fn harness(args: &[&str], stdin: Option<&str>) -> Value {
    let mut child = Command::new("python3")
        .arg(harness_path())
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python3 tests/ssh/sshd_harness.py");
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(text.as_bytes()).expect("write to the harness");
    }
    let out = child.wait_with_output().expect("wait for the harness");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "sshd_harness.py {args:?} failed ({}):\n{stderr}", out.status);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("sshd_harness.py {args:?} printed no JSON ({e})"))
}

fn string(value: &Value, key: &str) -> String {
    value[key].as_str().unwrap_or_else(|| panic!("the harness's JSON has no {key:?}: {value}")).to_owned()
}

/// A test's own directory under the cargo target's tmp, emptied first; its
/// logs stay there for a failure's diagnosis.
pub fn test_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("openssh").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

/// The harness's keys (ed25519): the host key, the client key, the server's
/// authorized_keys and the client's known_hosts.
pub struct Keys {
    pub dir: PathBuf,
    pub host: PathBuf,
    pub host_public: PathBuf,
    pub client: PathBuf,
    pub client_public: PathBuf,
}

impl Keys {
    pub fn make(dir: &Path) -> Keys {
        let dir = dir.join("keys");
        let keys = harness(&["keys", &dir.to_string_lossy()], None);
        let path = |key: &str| PathBuf::from(string(&keys, key));
        Keys {
            host: path("host"),
            host_public: path("host_public"),
            client: path("client"),
            client_public: path("client_public"),
            dir,
        }
    }
}

/// The user the harness lets in (its sshd's AllowUsers, the `ssh` login).
pub fn user() -> String {
    let out = Command::new("id").arg("-un").output().expect("run id -un");
    String::from_utf8(out.stdout).expect("a UTF-8 user name").trim().to_owned()
}

/// A private `sshd` offering aes128-ctr and exactly one MAC, served by the
/// harness until dropped (closing the harness's standard input stops sshd
/// and every per-connection process it forked).
pub struct Sshd {
    harness: Child,
    stdin: Option<ChildStdin>,
    pub port: u16,
    pub log: PathBuf,
    /// The listener's process: a wait on its log ends when it exits.
    pid: u32,
}

impl Sshd {
    pub fn start(dir: &Path, keys: &Keys, mac: mac::Name) -> Sshd {
        let mut harness = Command::new("python3")
            .arg(harness_path())
            .args(["serve", "--work"])
            .arg(dir)
            .arg("--keys")
            .arg(&keys.dir)
            .args(["--mac", mac.as_ref()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run python3 tests/ssh/sshd_harness.py serve");
        let stdin = harness.stdin.take();
        let mut line = String::new();
        let stdout = harness.stdout.take().expect("the harness's stdout");
        BufReader::new(stdout).read_line(&mut line).expect("read the harness's line");
        let served: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("sshd_harness.py serve did not start sshd ({e})"));
        let port = served["port"].as_u64().and_then(|p| u16::try_from(p).ok()).expect("a port");
        let pid = served["pid"].as_u64().and_then(|p| u32::try_from(p).ok()).expect("a pid");
        Sshd { harness, stdin, port, log: PathBuf::from(string(&served, "log")), pid }
    }

    pub fn log_text(&self) -> String {
        String::from_utf8_lossy(&fs::read(&self.log).unwrap_or_default()).into_owned()
    }

    /// Waits until the log holds `needle`; false after `timeout` or once
    /// sshd has exited without it.
    pub fn wait_for_log(&self, needle: &str, timeout: Duration) -> bool {
        self.wait(&["--line", needle], timeout)
    }

    /// Waits until the log shows at least `count` key exchanges (the
    /// per-connection process writes them; they may trail the client).
    pub fn wait_for_kexes(&self, count: usize, timeout: Duration) {
        self.wait(&["--kex", &count.to_string()], timeout);
    }

    /// The harness's `wait`, which the log's writes wake (not a timer).
    fn wait(&self, what: &[&str], timeout: Duration) -> bool {
        let (log, pid, seconds) = (self.log.to_string_lossy(), self.pid.to_string(), timeout.as_secs_f64().to_string());
        let mut args = vec!["wait", "--log", &log, "--pid", &pid, "--timeout", &seconds];
        args.extend_from_slice(what);
        harness(&args, None)["found"].as_bool().expect("the harness's wait says whether it found")
    }
}

impl Drop for Sshd {
    /// Closes the harness's standard input, which stops sshd, and waits
    /// for the harness to exit: 30 s at most, then it is killed (by its
    /// PID, still its own until the waiting thread reaps it).
    fn drop(&mut self) {
        drop(self.stdin.take());
        let pid = self.harness.id().to_string();
        let harness = &mut self.harness;
        std::thread::scope(|scope| {
            let (exited, exit) = mpsc::channel();
            scope.spawn(move || {
                let _ = harness.wait();
                let _ = exited.send(());
            });
            if exit.recv_timeout(Duration::from_secs(30)).is_err() {
                let _ = Command::new("kill").args(["-KILL", &pid]).status();
            }
        });
    }
}

/// One direction of one key exchange, as an OpenSSH debug log names it.
#[derive(Debug, PartialEq, Eq)]
pub struct Kex {
    pub direction: String,
    pub cipher: String,
    pub mac: String,
}

/// Every key exchange of an OpenSSH debug log (sshd's `LogLevel DEBUG1`,
/// `ssh -v`), one entry per direction, read by the harness.
pub fn negotiated(log: &str) -> Vec<Kex> {
    let found = harness(&["negotiated", "-"], Some(log));
    let entries = found["kex"].as_array().expect("the harness's kex list");
    entries
        .iter()
        .map(|entry| {
            let field = |i: usize| entry[i].as_str().expect("a kex field").to_owned();
            Kex { direction: field(0), cipher: field(1), mac: field(2) }
        })
        .collect()
}

/// OpenSSH's own account of a session's key exchanges: every one in both
/// directions negotiated the cipher and `mac`, and there were at least
/// `min_kexes` of them (the first and the rekeys). The count of key
/// exchanges is returned.
pub fn check_openssh_kexes(log: &str, mac: mac::Name, min_kexes: usize) -> Result<usize, String> {
    let kexes = negotiated(log);
    let cipher = fastmac_russh::CIPHER.as_ref();
    if let Some(other) = kexes.iter().find(|k| k.cipher != cipher || k.mac != mac.as_ref()) {
        return Err(format!("a key exchange negotiated {other:?}, not {cipher} with {}", mac.as_ref()));
    }
    let per_direction = |direction: &str| kexes.iter().filter(|k| k.direction == direction).count();
    let (up, down) = (per_direction("client->server"), per_direction("server->client"));
    if up != down || up < min_kexes {
        return Err(format!(
            "{up} client->server and {down} server->client key exchanges logged, expected at least {min_kexes} each"
        ));
    }
    Ok(up)
}

/// What the `ssh` client did.
pub struct SshRun {
    pub status: std::process::ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Its `-v` debug log (`-E`).
    pub log: String,
}

/// The real `ssh` client to 127.0.0.1:`port` (the harness's command line:
/// aes128-ctr and exactly `mac`, the harness's host key checked), running
/// `command` with `input` on its standard input; its debug log goes to
/// `log`.
pub async fn ssh(port: u16, keys: &Keys, mac: mac::Name, command: &str, input: Arc<Vec<u8>>, log: &Path) -> SshRun {
    let port = port.to_string();
    let keys_dir = keys.dir.to_string_lossy();
    let log_path = log.to_string_lossy();
    let argv = harness(
        &[
            "client-argv",
            "--keys",
            &keys_dir,
            "--port",
            &port,
            "--mac",
            mac.as_ref(),
            "--log",
            &log_path,
            "--",
            command,
        ],
        None,
    );
    let argv: Vec<String> = argv
        .as_array()
        .expect("the harness's argv")
        .iter()
        .map(|a| a.as_str().expect("an argument").to_owned())
        .collect();
    let mut child = tokio::process::Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start ssh");
    let mut stdin = child.stdin.take().expect("ssh's stdin");
    let writer = tokio::spawn(async move {
        // ssh may exit before reading it all (a refused session).
        let _ = stdin.write_all(&input).await;
    });
    let mut stdout = child.stdout.take().expect("ssh's stdout");
    let mut stderr = child.stderr.take().expect("ssh's stderr");
    let run = async {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let (read_out, read_err) = tokio::join!(stdout.read_to_end(&mut out), stderr.read_to_end(&mut err));
        read_out.expect("read ssh's stdout");
        read_err.expect("read ssh's stderr");
        let status = child.wait().await.expect("wait for ssh");
        (status, out, err)
    };
    let (status, stdout, stderr) = tokio::time::timeout(STEP_TIMEOUT, run).await.expect("ssh did not finish in time");
    writer.abort();
    let log = String::from_utf8_lossy(&fs::read(log).unwrap_or_default()).into_owned();
    SshRun { status, stdout, stderr: String::from_utf8_lossy(&stderr).into_owned(), log }
}

/// A russh client's test against a private `sshd` offering `mac`: the
/// test's directory, the harness's keys and server, and the client's keys.
pub struct SshdFixture {
    pub dir: PathBuf,
    pub sshd: Sshd,
    mac: mac::Name,
    user: String,
    client_key: PrivateKey,
    host_key: PublicKey,
}

impl SshdFixture {
    pub fn start(name: &str, mac: mac::Name) -> SshdFixture {
        let dir = test_dir(&format!("{name}-{}", mac.as_ref()));
        let keys = Keys::make(&dir);
        let sshd = Sshd::start(&dir, &keys, mac);
        let client_key = load_private_key(&keys.client).expect("the client key");
        let host_key = load_public_key(&keys.host_public).expect("the host key");
        SshdFixture { dir, sshd, mac, user: user(), client_key, host_key }
    }

    /// How the russh client connects: this server's port and host key, the
    /// client key, the one MAC, rekeys as often as the server's.
    pub fn client_setup(&self) -> ClientSetup<'_> {
        ClientSetup {
            port: self.sshd.port,
            user: &self.user,
            key: &self.client_key,
            host_key: &self.host_key,
            mac: self.mac,
            rekey_bytes: REKEY_BYTES,
        }
    }
}

/// The `ssh` client's test against a russh server offering `mac`, with the
/// harness's host key: the server task serves one connection.
pub struct RusshServerFixture {
    pub dir: PathBuf,
    pub keys: Keys,
    pub port: u16,
    pub server: JoinHandle<Result<(), fastmac_russh::Error>>,
}

impl RusshServerFixture {
    pub async fn start(name: &str, mac: mac::Name) -> RusshServerFixture {
        let dir = test_dir(&format!("{name}-{}", mac.as_ref()));
        let keys = Keys::make(&dir);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a port");
        let port = listener.local_addr().expect("its address").port();
        let config = server_config(load_private_key(&keys.host).expect("the host key"), mac, REKEY_BYTES);
        let client_key = load_public_key(&keys.client_public).expect("the client key");
        let server = tokio::spawn(async move { serve_one(&listener, Arc::new(config), client_key).await });
        RusshServerFixture { dir, keys, port, server }
    }

    /// Runs `ssh` with `command` and `input` against this server; its debug
    /// log goes to ssh.log in the test's directory.
    pub async fn ssh(&self, mac: mac::Name, command: &str, input: Arc<Vec<u8>>) -> SshRun {
        ssh(self.port, &self.keys, mac, command, input, &self.dir.join("ssh.log")).await
    }
}
