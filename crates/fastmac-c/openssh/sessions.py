"""Real SSH sessions through OpenSSH built with libfastmac (openssh.mk).

    sessions.py --fastmac DIR --flip DIR --work DIR

DIR holds `ssh` and `sshd` of one build (see link.sh). Every server is a
private sshd on 127.0.0.1 (its own host key, config, log, a free port), run
in the foreground and stopped by its PID, with the per-connection children it
forked. For each direction (fastmac ssh -> fastmac sshd, fastmac ssh ->
Debian's sshd, Debian's ssh -> fastmac sshd) and each UMAC name, with cipher
aes128-ctr (not an AEAD, so the MAC is used) and RekeyLimit 1M on both sides:
16 MiB each way through `cat`, SHA-256 compared, the negotiated MAC read from
both logs (every key exchange), the rekeys counted. Then the negative
control: the build whose umac_final flips a tag bit must be refused with
"Corrupted MAC on input". Prints one table row per session; exit status 1 on
any failure.
"""

from __future__ import annotations

import argparse
import getpass
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

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

    def __init__(self, binary: str, work: Path, name: str, keys: dict[str, Path], rekey_limit: str = REKEY_LIMIT) -> None:
        self.binary, self.work, self.name, self.keys = binary, work, name, keys
        self.rekey_limit = rekey_limit
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
    """`ssh ... cat` with the payload as stdin; its stdout to `out`."""
    command = client_command(ssh, server, mac, log, "cat")
    with payload.open("rb") as stdin, out.open("wb") as stdout:
        # subprocess.run kills this one child by PID on timeout.
        return subprocess.run(command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL,
                              timeout=SESSION_TIMEOUT_S).returncode


def negotiated_macs(log: str) -> set[tuple[str, str]]:
    return set(KEX_LINE.findall(log))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def session(direction: str, ssh: str, server: Sshd, mac: str, payload: Path, digest: str) -> bool:
    work = server.work
    tag = f"{direction}-{mac}".replace("@", "_").replace(" ", "")
    out, log = work / f"{tag}.out", work / f"{tag}.client.log"
    offset = len(server.log.read_text(errors="replace"))
    status = run_client(ssh, server, mac, payload, out, log)
    time.sleep(0.2)  # the server's last log lines
    client_log, server_log = log.read_text(errors="replace"), server.log_since(offset)
    seen = {"client": negotiated_macs(client_log), "server": negotiated_macs(server_log)}
    mac_confirmed = all(found == {(CIPHER, mac)} for found in seen.values())
    rekeys = client_log.count("SSH2_MSG_NEWKEYS sent") - 1
    match = out.stat().st_size == PAYLOAD_BYTES and sha256(out) == digest
    ok = status == 0 and match and mac_confirmed and rekeys >= MIN_REKEYS
    print(f"| {direction} | {mac} | {PAYLOAD_BYTES} each way | {'yes' if match else 'NO'} | "
          f"{rekeys} | {'yes' if mac_confirmed else 'NO ' + repr(seen)} | {'ok' if ok else 'FAILED (exit ' + str(status) + ')'} |",
          flush=True)
    if not ok:
        print(f"client log tail:\n{client_log[-2000:]}\nserver log tail:\n{server_log[-2000:]}", file=sys.stderr)
    out.unlink()
    return ok


def negative_control(flip_ssh: str, server: Sshd, mac: str, payload: Path) -> bool:
    work = server.work
    out, log = work / "flip.out", work / f"flip-{mac.replace('@', '_')}.client.log"
    offset = len(server.log.read_text(errors="replace"))
    status = run_client(flip_ssh, server, mac, payload, out, log)
    time.sleep(0.2)
    logs = log.read_text(errors="replace") + server.log_since(offset)
    refused = status != 0 and "Corrupted MAC on input" in logs
    print(f"| flipped-tag ssh -> fastmac sshd | {mac} | refused: {'yes' if refused else 'NO'} "
          f"(ssh exit {status}) |", flush=True)
    if not refused:
        print(logs[-3000:], file=sys.stderr)
    out.unlink()
    return refused


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fastmac", required=True)
    parser.add_argument("--flip", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)  # keys, logs and payload of an earlier run
    work.mkdir(parents=True)
    fastmac_ssh, fastmac_sshd = str(Path(args.fastmac).resolve() / "ssh"), str(Path(args.fastmac).resolve() / "sshd")
    flip_ssh = str(Path(args.flip).resolve() / "ssh")
    keys = make_keys(work)
    payload = work / "payload"
    payload.write_bytes(os.urandom(PAYLOAD_BYTES))
    digest = sha256(payload)

    results = []
    print("| direction | MAC | bytes | SHA-256 match | rekeys (client) | MAC in both logs | result |")
    print("|---|---|---|---|---|---|---|")
    with Sshd(fastmac_sshd, work, "fastmac", keys) as ours, Sshd(DEBIAN_SSHD, work, "debian", keys) as debian:
        for mac in MACS:
            results.append(session("fastmac ssh -> fastmac sshd", fastmac_ssh, ours, mac, payload, digest))
            results.append(session("fastmac ssh -> Debian sshd", fastmac_ssh, debian, mac, payload, digest))
            results.append(session("Debian ssh -> fastmac sshd", DEBIAN_SSH, ours, mac, payload, digest))
        for mac in ("umac-64@openssh.com", "umac-128-etm@openssh.com"):
            results.append(negative_control(flip_ssh, ours, mac, payload))
    payload.unlink()
    print(f"{sum(results)}/{len(results)} passed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
