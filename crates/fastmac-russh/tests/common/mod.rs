//! The real OpenSSH on 127.0.0.1 for the session tests: keys made by
//! `ssh-keygen`, a private `sshd` offering one MAC (its own config, host key
//! and log, a free port), and the `ssh` client. Every process is bounded in
//! time and stopped when the test ends. The pitfalls handled here are those
//! of docs/ssh.md section 1.4.

#![allow(dead_code)] // each test file uses its own part

use std::fs;
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use russh::mac;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub const SSHD: &str = "/usr/sbin/sshd";
pub const SSH: &str = "/usr/bin/ssh";
pub const SSH_KEYGEN: &str = "/usr/bin/ssh-keygen";

/// A rekey in both directions after this many bytes, on both sides.
pub const REKEY_BYTES: usize = 1 << 20;
pub const REKEY_LIMIT: &str = "1M";

/// Bytes sent each way in a session: several rekeys' worth.
pub const PAYLOAD_BYTES: usize = 8 << 20;

/// How long a session or a refusal may take (the machine may be shared).
pub const STEP_TIMEOUT: Duration = Duration::from_secs(180);

/// A test's own directory under the cargo target's tmp, emptied first; its
/// logs stay there for a failure's diagnosis.
pub fn test_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("openssh").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

/// The user the test runs as (sshd's AllowUsers and the login name).
pub fn user() -> String {
    let out = Command::new("id").arg("-un").output().expect("run id -un");
    String::from_utf8(out.stdout).expect("a UTF-8 user name").trim().to_owned()
}

/// Fails the test when OpenSSH is missing (make test-russh installs it).
pub fn require_openssh() {
    for path in [SSHD, SSH, SSH_KEYGEN] {
        assert!(
            Path::new(path).exists(),
            "{path} is missing: make test-russh installs openssh-server and openssh-client"
        );
    }
}

/// The host and client keys (ed25519) and the authorized_keys file.
pub struct Keys {
    pub host: PathBuf,
    pub client: PathBuf,
    pub authorized: PathBuf,
}

impl Keys {
    pub fn make(dir: &Path) -> Keys {
        require_openssh();
        let path = |name: &str| dir.join(format!("{name}_ed25519"));
        for name in ["host", "client"] {
            let status = Command::new(SSH_KEYGEN)
                .args(["-q", "-t", "ed25519", "-N", "", "-C", "fastmac-russh-test", "-f"])
                .arg(path(name))
                .status()
                .expect("run ssh-keygen");
            assert!(status.success(), "ssh-keygen failed: {status}");
        }
        let authorized = dir.join("authorized_keys");
        fs::copy(dir.join("client_ed25519.pub"), &authorized).expect("write authorized_keys");
        Keys { host: path("host"), client: path("client"), authorized }
    }

    pub fn public(private: &Path) -> PathBuf {
        private.with_extension("pub")
    }
}

/// A free TCP port on 127.0.0.1 (another process may take it before sshd
/// binds it: `Sshd::start` retries).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("bind a free port").local_addr().expect("its address").port()
}

/// `/usr/sbin/sshd -D` offering aes128-ctr and exactly one MAC; stopped on
/// drop with the per-connection sshd processes it forked.
pub struct Sshd {
    child: Child,
    pub port: u16,
    pub log: PathBuf,
}

impl Sshd {
    pub fn start(dir: &Path, keys: &Keys, mac: mac::Name) -> Sshd {
        // sshd run as root needs its privilege separation directory, which
        // Debian's service unit creates and a test does not run (as another
        // user sshd does not use it, and creating it fails harmlessly).
        let _ = fs::create_dir_all("/run/sshd");
        for _attempt in 0..3 {
            let port = free_port();
            let config = dir.join("sshd_config");
            let log = dir.join("sshd.log");
            fs::write(&config, sshd_config(dir, keys, mac, port)).expect("write sshd_config");
            let checked = Command::new(SSHD).arg("-t").arg("-f").arg(&config).status().expect("run sshd -t");
            assert!(checked.success(), "sshd -t rejected {}", config.display());
            fs::write(&log, "").expect("empty the sshd log");
            let child = Command::new(SSHD)
                .arg("-D")
                .arg("-f")
                .arg(&config)
                .arg("-E")
                .arg(&log)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start sshd");
            let mut sshd = Sshd { child, port, log };
            if sshd.wait_for_log(&format!("Server listening on 127.0.0.1 port {port}."), Duration::from_secs(20)) {
                return sshd;
            }
            sshd.stop(); // the port was taken in between: another one
        }
        panic!("sshd did not start (log in {})", dir.display());
    }

    pub fn log_text(&self) -> String {
        String::from_utf8_lossy(&fs::read(&self.log).unwrap_or_default()).into_owned()
    }

    /// Waits until the log holds `needle`; false after `timeout` or when
    /// sshd exited without writing it.
    pub fn wait_for_log(&mut self, needle: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.log_text().contains(needle) {
                return true;
            }
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return self.log_text().contains(needle);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    fn stop(&mut self) {
        // Per-connection sshd processes call setsid(): a process group would
        // not reach them, so their pids are collected first.
        let children = descendants(self.child.id());
        terminate(self.child.id());
        let deadline = Instant::now() + Duration::from_secs(10);
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        for pid in children {
            terminate(pid);
        }
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        self.stop();
    }
}

fn sshd_config(dir: &Path, keys: &Keys, mac: mac::Name, port: u16) -> String {
    [
        format!("Port {port}"),
        "ListenAddress 127.0.0.1".into(),
        format!("HostKey {}", keys.host.display()),
        format!("PidFile {}", dir.join("sshd.pid").display()),
        format!("AuthorizedKeysFile {}", keys.authorized.display()),
        "StrictModes no".into(),
        "UsePAM no".into(),
        "PubkeyAuthentication yes".into(),
        "PasswordAuthentication no".into(),
        "KbdInteractiveAuthentication no".into(),
        "PermitRootLogin prohibit-password".into(),
        format!("AllowUsers {}", user()),
        format!("Ciphers {}", fastmac_russh::CIPHER.as_ref()),
        format!("MACs {}", mac.as_ref()),
        format!("RekeyLimit {REKEY_LIMIT}"),
        "LogLevel DEBUG1".into(),
        "UseDNS no".into(),
        "PrintMotd no".into(),
        "PrintLastLog no".into(),
        String::new(),
    ]
    .join("\n")
}

fn terminate(pid: u32) {
    let _ = Command::new("kill").arg("-TERM").arg(pid.to_string()).stderr(Stdio::null()).status();
}

/// Every live process below `pid`, from /proc.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else { continue };
        // The fields after the command name, which is in parentheses.
        let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        if let Some(ppid) = after_name.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
            parents.push((ppid, child));
        }
    }
    let mut found = Vec::new();
    let mut todo = vec![pid];
    while let Some(parent) = todo.pop() {
        for &(ppid, child) in &parents {
            if ppid == parent {
                found.push(child);
                todo.push(child);
            }
        }
    }
    found
}

/// One `kex: <direction> cipher: C MAC: M` line of an OpenSSH debug log
/// (sshd's `LogLevel DEBUG1`, `ssh -v`): written at every key exchange,
/// the first and each rekey.
#[derive(Debug, PartialEq, Eq)]
pub struct KexLine {
    pub direction: String,
    pub cipher: String,
    pub mac: String,
}

pub fn kex_lines(log: &str) -> Vec<KexLine> {
    log.lines()
        .filter_map(|line| {
            let rest = &line[line.find("kex: ")? + "kex: ".len()..];
            let mut words = rest.split_whitespace();
            let direction = words.next()?;
            if !direction.contains("->") || words.next()? != "cipher:" {
                return None;
            }
            let cipher = words.next()?;
            if words.next()? != "MAC:" {
                return None;
            }
            Some(KexLine { direction: direction.into(), cipher: cipher.into(), mac: words.next()?.into() })
        })
        .collect()
}

/// OpenSSH's own account of the session's key exchanges: every one in both
/// directions negotiated the cipher and `mac`, and there were at least
/// `min_kexes` of them (the first and the rekeys). The count of key
/// exchanges is returned.
pub fn check_openssh_kexes(log: &str, mac: mac::Name, min_kexes: usize) -> Result<usize, String> {
    let lines = kex_lines(log);
    let per_direction = |direction: &str| lines.iter().filter(|l| l.direction == direction).count();
    let (up, down) = (per_direction("client->server"), per_direction("server->client"));
    if let Some(other) = lines.iter().find(|l| l.cipher != fastmac_russh::CIPHER.as_ref() || l.mac != mac.as_ref()) {
        return Err(format!(
            "a key exchange negotiated {other:?}, not {} with {}",
            fastmac_russh::CIPHER.as_ref(),
            mac.as_ref()
        ));
    }
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
    /// Its `-v` debug log.
    pub stderr: String,
}

/// The real `ssh` client to 127.0.0.1:`port`, offering aes128-ctr and
/// exactly `mac`, running `command` with `input` on its standard input.
pub async fn ssh(port: u16, keys: &Keys, mac: mac::Name, command: &str, input: Arc<Vec<u8>>) -> SshRun {
    let mut child = tokio::process::Command::new(SSH)
        .args(["-F", "/dev/null", "-v", "-p", &port.to_string(), "-i"])
        .arg(&keys.client)
        .args(["-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "UserKnownHostsFile=/dev/null"])
        .args(["-o", "StrictHostKeyChecking=no", "-o", "ConnectTimeout=30"])
        .arg("-o")
        .arg(format!("Ciphers={}", fastmac_russh::CIPHER.as_ref()))
        .arg("-o")
        .arg(format!("MACs={}", mac.as_ref()))
        .arg("-o")
        .arg(format!("RekeyLimit={REKEY_LIMIT}"))
        .arg(format!("{}@127.0.0.1", user()))
        .arg(command)
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
        SshRun { status, stdout: out, stderr: String::from_utf8_lossy(&err).into_owned() }
    };
    let result = tokio::time::timeout(STEP_TIMEOUT, run).await.expect("ssh did not finish in time");
    writer.abort();
    result
}

/// Writes `text` to `path` (a log kept for diagnosis).
pub fn keep_log(path: &Path, text: &str) {
    let _ = fs::File::create(path).and_then(|mut f| f.write_all(text.as_bytes()));
}
