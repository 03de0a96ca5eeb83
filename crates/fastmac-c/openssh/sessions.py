"""Real SSH sessions through an OpenSSH build linked with libfastmac
(openssh.mk), against Debian 12's own ssh and sshd:

    sessions.py --label NAME --fastmac DIR --flip DIR --stock DIR --work DIR

Each DIR holds one build's programs (link.sh): `ssh`, `sshd` and, from
OpenSSH 9.8 on, `sshd-session` (the process that carries a connection)
and, from 10.0 on, `sshd-auth` (its authentication phase). A server of a
build runs that build's `sshd` with that build's `sshd-session` and
`sshd-auth` (SshdSessionPath, SshdAuthPath): sshd otherwise runs whatever
sits at its compiled-in path. Every server is a private sshd on 127.0.0.1
(its own host key, config, log, a free port), in the foreground, stopped by
its PID with the per-connection processes it forked.

For each direction (fastmac ssh -> fastmac sshd, fastmac ssh -> Debian's
sshd, Debian's ssh -> fastmac sshd) and each UMAC name, with cipher
aes128-ctr (not an AEAD, so the MAC is used) and RekeyLimit 1M on both
sides: 16 MiB each way through `cat`, SHA-256 compared, the negotiated MAC
read from both logs (every key exchange), the rekeys counted. While a
session to the fastmac server runs, the server's processes are read from
/proc: the one that carries the connection (sshd-session, or sshd before
9.8) must be seen, and every sshd program among them must be fastmac's
(`nm` of the running program's path: fastmac's UMAC code, none of umac.c).

Negative controls, each of which must be refused or caught:
- client side: the flipped-tag ssh (every umac_final tag with one bit
  flipped) against the fastmac server: "Corrupted MAC on input";
- server side: Debian's ssh against a server whose sshd-session and
  sshd-auth (or, before 9.8, sshd) flip their tags, and, where the build
  has them, against servers where only one of sshd-session and sshd-auth
  flips: each program computes the MACs of its part of the session;
- the proof: a session to the fastmac sshd run with the stock build's
  sshd-session and sshd-auth transfers its data, and the session check
  must report it as not served by fastmac.

Prints one table row per session; exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import functools
import getpass
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

MACS = (
    "umac-64@openssh.com",
    "umac-128@openssh.com",
    "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com",
)
CIPHER = "aes128-ctr"
REKEY_LIMIT = "1M"
PAYLOAD_BYTES = 16 << 20
SESSION_TIMEOUT_S = 180
DEBIAN_SSH = "/usr/bin/ssh"
DEBIAN_SSHD = "/usr/sbin/sshd"
SSH_KEYGEN = "/usr/bin/ssh-keygen"
# 16 MiB each way at a 1 MiB rekey limit rekeys about 32 times; half of that
# is the least a working RekeyLimit can give.
MIN_REKEYS = 16
KEX_LINE = re.compile(r"kex: (?:client->server|server->client) cipher: (\S+) MAC: (\S+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children_of(pid: int) -> list[int]:
    """Every live process below `pid`, deepest last (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class Sshd:
    """`sshd -D` from one build, offering the four UMACs."""

    def __init__(self, binary: str, work: Path, name: str, keys: dict[str, Path], rekey_limit: str = REKEY_LIMIT,
                 sshd_session: str | None = None, sshd_auth: str | None = None) -> None:
        self.binary, self.work, self.name, self.keys = binary, work, name, keys
        self.rekey_limit = rekey_limit
        self.sshd_session, self.sshd_auth = sshd_session, sshd_auth
        self.seen: set[str] = set()  # the sshd programs of the last session (run_client)
        self.log = work / f"sshd-{name}.log"
        self.process: subprocess.Popen | None = None
        self.port = 0

    def config(self) -> str:
        return "\n".join([
            f"Port {self.port}",
            "ListenAddress 127.0.0.1",
            f"HostKey {self.keys['host']}",
            f"PidFile {self.work / ('sshd-' + self.name + '.pid')}",
            f"AuthorizedKeysFile {self.keys['authorized']}",
            "StrictModes no",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            f"AllowUsers {getpass.getuser()}",
            f"Ciphers {CIPHER}",
            f"MACs {','.join(MACS)}",
            f"RekeyLimit {self.rekey_limit}",
            "LogLevel DEBUG1",
            "UseDNS no",
            "PrintMotd no",
            "PrintLastLog no",
            *([f"SshdSessionPath {self.sshd_session}"] if self.sshd_session else []),
            *([f"SshdAuthPath {self.sshd_auth}"] if self.sshd_auth else []),
            "",
        ])

    def __enter__(self) -> "Sshd":
        if os.geteuid() == 0:
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # privilege separation
        for _ in range(3):
            self.port = free_port()
            config = self.work / f"sshd-{self.name}.conf"
            config.write_text(self.config())
            subprocess.run([self.binary, "-t", "-f", str(config)], check=True, timeout=30)
            self.log.write_text("")
            self.process = subprocess.Popen(
                [self.binary, "-D", "-f", str(config), "-E", str(self.log)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and self.process.poll() is None:
                if f"Server listening on 127.0.0.1 port {self.port}." in self.log.read_text():
                    return self
                time.sleep(0.05)
            self.stop()  # the port was taken in between: another one
        raise RuntimeError(f"{self.binary} did not start:\n{self.log.read_text()}")

    def __exit__(self, *exc) -> None:
        self.stop()

    def log_since(self, offset: int) -> str:
        return self.log.read_text(errors="replace")[offset:]

    def stop(self) -> None:
        """The listener and the per-connection sshd processes it forked (they
        call setsid(), so a process group would not reach them), by PID."""
        if self.process is None:
            return
        for pid in [self.process.pid, *children_of(self.process.pid)]:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


def make_keys(work: Path) -> dict[str, Path]:
    keys = {}
    for name in ("host", "client"):
        path = work / f"{name}_ed25519"
        subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", f"fastmac-{name}", "-f", str(path)],
                       check=True, timeout=30)
        keys[name] = path
    keys["authorized"] = work / "authorized_keys"
    keys["authorized"].write_text((work / "client_ed25519.pub").read_text())
    keys["authorized"].chmod(0o600)
    return keys


def client_command(ssh: str, server: Sshd, mac: str, log: Path, remote: str) -> list[str]:
    """`ssh` to `server` with the test's key, cipher, `mac` and rekey limit."""
    known = server.work / "known_hosts"
    known.write_text(f"[127.0.0.1]:{server.port} " + server.keys["host"].with_suffix(".pub").read_text())
    log.write_text("")
    return [
        ssh, "-F", "/dev/null", "-vv", "-E", str(log), "-p", str(server.port),
        "-i", str(server.keys["client"]), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
        "-o", f"UserKnownHostsFile={known}", "-o", "StrictHostKeyChecking=yes",
        "-o", f"Ciphers={CIPHER}", "-o", f"MACs={mac}", "-o", f"RekeyLimit={server.rekey_limit}",
        f"{getpass.getuser()}@127.0.0.1", remote,
    ]


def run_client(ssh: str, server: Sshd, mac: str, payload: Path, out: Path, log: Path) -> int:
    """`ssh ... cat` with the payload as stdin; its stdout to `out`. While it
    runs, the server's processes are sampled (`server.seen`)."""
    command = client_command(ssh, server, mac, log, "cat")
    watcher = ProcessWatcher(server.process.pid)
    with payload.open("rb") as stdin, out.open("wb") as stdout, watcher:
        # subprocess.run kills this one child by PID on timeout.
        status = subprocess.run(command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL,
                                timeout=SESSION_TIMEOUT_S).returncode
    server.seen = watcher.programs
    return status


class ProcessWatcher:
    """The sshd programs (by the path /proc/PID/exe names) of every process
    below `pid`, sampled every few milliseconds while the `with` block runs."""

    INTERVAL_S = 0.005

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.programs: set[str] = set()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.done.is_set():
            for child in children_of(self.pid):
                try:
                    exe = os.readlink(f"/proc/{child}/exe")
                except OSError:
                    continue
                if Path(exe).name.startswith("sshd"):
                    self.programs.add(exe)
            self.done.wait(self.INTERVAL_S)

    def __enter__(self) -> "ProcessWatcher":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        self.thread.join()


@functools.cache
def runs_fastmac(path: str) -> bool:
    """`nm` of a program: fastmac's UMAC code and none of umac.c's (its
    static function nh_aux), as nm-check.sh reads it."""
    symbols = subprocess.run(["nm", path], capture_output=True, text=True, check=True, timeout=60).stdout
    return "7fastmac4umac" in symbols and not re.search(r" t nh_aux$", symbols, re.M)


def served_by_fastmac(server: Sshd) -> tuple[bool, str]:
    """Whether the sampled processes of a session show the build's
    per-connection program, and only sshd programs that carry fastmac."""
    carrier = Path(server.sshd_session or server.binary).name
    names = sorted(server.seen)
    if not any(Path(exe).name == carrier for exe in names):
        return False, f"no {carrier} process seen"
    stock = [exe for exe in names if not runs_fastmac(exe)]
    if stock:
        return False, "not fastmac: " + ", ".join(stock)
    return True, ", ".join(f"{Path(exe).parent.name}/{Path(exe).name}" for exe in names)


def negotiated_macs(log: str) -> set[tuple[str, str]]:
    return set(KEX_LINE.findall(log))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Outcome(NamedTuple):
    ok: bool  # everything below, and the proof where one was asked for
    transferred: bool  # exit 0, the bytes back, the MAC in both logs, the rekeys
    proven: bool  # the server's processes were fastmac's (or no proof was asked for)


def session(direction: str, ssh: str, server: Sshd, mac: str, payload: Path, digest: str, fastmac_server: bool,
            quiet: bool = False) -> Outcome:
    """One session; with `fastmac_server`, the server's processes must also
    prove that fastmac served it."""
    work = server.work
    tag = f"{direction}-{mac}".replace("@", "_").replace(" ", "").replace(">", "")
    out, log = work / f"{tag}.out", work / f"{tag}.client.log"
    offset = len(server.log.read_text(errors="replace"))
    status = run_client(ssh, server, mac, payload, out, log)
    time.sleep(0.2)  # the server's last log lines
    client_log, server_log = log.read_text(errors="replace"), server.log_since(offset)
    seen = {"client": negotiated_macs(client_log), "server": negotiated_macs(server_log)}
    mac_confirmed = all(found == {(CIPHER, mac)} for found in seen.values())
    rekeys = client_log.count("SSH2_MSG_NEWKEYS sent") - 1
    match = out.stat().st_size == PAYLOAD_BYTES and sha256(out) == digest
    proven, processes = served_by_fastmac(server) if fastmac_server else (True, "(Debian's sshd)")
    transferred = status == 0 and match and mac_confirmed and rekeys >= MIN_REKEYS
    ok = transferred and proven
    print(f"| {direction} | {mac} | {PAYLOAD_BYTES} each way | {'yes' if match else 'NO'} | "
          f"{rekeys} | {'yes' if mac_confirmed else 'NO ' + repr(seen)} | "
          f"{processes if proven else 'NO: ' + processes} | {'ok' if ok else 'FAILED (exit ' + str(status) + ')'} |",
          flush=True)
    if not ok and not quiet:
        print(f"client log tail:\n{client_log[-2000:]}\nserver log tail:\n{server_log[-2000:]}", file=sys.stderr)
    out.unlink()
    return Outcome(ok, transferred, proven)


def refused(what: str, ssh: str, server: Sshd, mac: str, payload: Path) -> bool:
    """A negative control: the session must fail, with a MAC error in the
    client's or the server's log."""
    work = server.work
    out, log = work / "flip.out", work / f"flip-{server.name}-{mac.replace('@', '_')}.client.log"
    offset = len(server.log.read_text(errors="replace"))
    status = run_client(ssh, server, mac, payload, out, log)
    time.sleep(0.2)
    logs = log.read_text(errors="replace") + server.log_since(offset)
    ok = status != 0 and "Corrupted MAC on input" in logs
    print(f"| {what} | {mac} | refused: {'yes' if ok else 'NO'} (ssh exit {status}) |", flush=True)
    if not ok:
        print(logs[-3000:], file=sys.stderr)
    out.unlink()
    return ok


class Build:
    """The programs of one build directory (link.sh)."""

    def __init__(self, directory: str) -> None:
        self.dir = Path(directory).resolve()
        self.ssh, self.sshd = str(self.dir / "ssh"), str(self.dir / "sshd")

    def program(self, name: str) -> str | None:
        """sshd-session or sshd-auth, if the OpenSSH version has it."""
        path = self.dir / name
        return str(path) if path.exists() else None

    def server(self, work: Path, name: str, keys: dict[str, Path], session_from: "Build | None" = None,
               auth_from: "Build | None" = None) -> Sshd:
        """This build's sshd, with the sshd-session and sshd-auth of this
        build or of the ones named."""
        return Sshd(self.sshd, work, name, keys, sshd_session=(session_from or self).program("sshd-session"),
                    sshd_auth=(auth_from or self).program("sshd-auth"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", required=True, help="the OpenSSH version, for the table")
    parser.add_argument("--fastmac", required=True)
    parser.add_argument("--flip", required=True)
    parser.add_argument("--stock", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)  # keys, logs and payload of an earlier run
    work.mkdir(parents=True)
    fastmac, flip, stock = Build(args.fastmac), Build(args.flip), Build(args.stock)
    split = fastmac.program("sshd-session") is not None
    keys = make_keys(work)
    payload = work / "payload"
    payload.write_bytes(os.urandom(PAYLOAD_BYTES))
    digest = sha256(payload)

    results = []
    print(f"{args.label}, built with libfastmac, against Debian 12's ssh and sshd:")
    print("| direction | MAC | bytes | SHA-256 match | rekeys (client) | MAC in both logs "
          "| server processes (nm: fastmac) | result |")
    print("|---|---|---|---|---|---|---|---|")
    with fastmac.server(work, "fastmac", keys) as ours, Sshd(DEBIAN_SSHD, work, "debian", keys) as debian:
        for mac in MACS:
            results.append(session("fastmac ssh -> fastmac sshd", fastmac.ssh, ours, mac, payload, digest, True).ok)
            results.append(session("fastmac ssh -> Debian sshd", fastmac.ssh, debian, mac, payload, digest, False).ok)
            results.append(session("Debian ssh -> fastmac sshd", DEBIAN_SSH, ours, mac, payload, digest, True).ok)
        print("negative controls:")
        for mac in ("umac-64@openssh.com", "umac-128-etm@openssh.com"):
            results.append(refused("flipped-tag ssh -> fastmac sshd", flip.ssh, ours, mac, payload))
    servers = [("Debian ssh -> flipped-tag " + ("sshd-session and sshd-auth" if split else "sshd"),
                flip.server(work, "flip", keys))]
    if split:
        servers.append(("Debian ssh -> flipped-tag sshd-session only", fastmac.server(work, "flip-session", keys,
                                                                                        session_from=flip)))
        if fastmac.program("sshd-auth") is not None:
            servers.append(("Debian ssh -> flipped-tag sshd-auth only", fastmac.server(work, "flip-auth", keys,
                                                                                     auth_from=flip)))
    for what, server in servers:
        with server:
            results.append(refused(what, DEBIAN_SSH, server, "umac-64-etm@openssh.com", payload))
    if split:
        # The proof's control: stock programs behind the fastmac sshd carry
        # the session, and the check must say so.
        with fastmac.server(work, "stock-session", keys, session_from=stock, auth_from=stock) as mixed:
            outcome = session("Debian ssh -> fastmac sshd, stock sshd-session", DEBIAN_SSH, mixed,
                              "umac-64@openssh.com", payload, digest, True, quiet=True)
        # The data went through; only the proof may fail it.
        caught = outcome.transferred and not outcome.proven
        print(f"| a stock sshd-session behind the fastmac sshd | umac-64@openssh.com | "
              f"transferred: {'yes' if outcome.transferred else 'NO'}, "
              f"failed by the session check: {'yes' if caught else 'NO'} |", flush=True)
        results.append(caught)
    payload.unlink()
    print(f"{args.label}: {sum(results)}/{len(results)} passed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
