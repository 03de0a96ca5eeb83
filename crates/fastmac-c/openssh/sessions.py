"""Real SSH sessions through an OpenSSH build linked with libfastmac
(openssh.mk), against Debian 12's own ssh and sshd:

    sessions.py --label NAME --fastmac DIR --flip DIR --stock DIR --work DIR

Each DIR holds one build's programs (link.sh): `ssh`, `sshd` and, from
OpenSSH 9.8 on, `sshd-session` (the process that carries a connection)
and, from 10.0 on, `sshd-auth` (its authentication phase). A server of a
build runs that build's `sshd` with that build's `sshd-session` and
`sshd-auth` (SshdSessionPath, SshdAuthPath): sshd otherwise runs whatever
sits at its compiled-in path. Every server is a private sshd on 127.0.0.1
started by tests/ssh/sshd_harness.py (its own host key, config, log, a free
port).

For each direction (fastmac ssh -> fastmac sshd, fastmac ssh -> Debian's
sshd, Debian's ssh -> fastmac sshd) and each UMAC name, with cipher
aes128-ctr (not an AEAD, so the MAC is used) and the harness's RekeyLimit
(768K) on both sides: 4 MiB each way through `cat`, SHA-256 compared, the negotiated MAC
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

Prints one table row per session and the closing line
"sessions: N passed, N failed"; exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "ssh"))
from sshd_harness import (  # noqa: E402
    CIPHER,
    REKEY_LIMIT,
    Keys,
    Sshd,
    descendants,
    kex_count,
    key_exchanges,
    leftover_servers,
    make_keys,
    ssh_command,
)

MACS = (
    "umac-64@openssh.com",
    "umac-128@openssh.com",
    "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com",
)
PAYLOAD_BYTES = 4 << 20
SESSION_TIMEOUT_S = 180
DEBIAN_SSH = "/usr/bin/ssh"
DEBIAN_SSHD = "/usr/sbin/sshd"
# 4 MiB each way at a 768 KiB rekey limit rekeys about 20 times; 16 is the
# least a working RekeyLimit can give.
MIN_REKEYS = 16
MAC_ERROR = "Corrupted MAC on input"


class ProcessWatcher:
    """The sshd programs (the paths /proc/PID/exe names) of every process
    below `pid`, sampled every few milliseconds while the `with` block runs:
    sshd-auth lives only for the authentication phase."""

    INTERVAL_S = 0.005

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.programs: set[str] = set()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.done.is_set():
            for child in descendants(self.pid):
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


def run_client(ssh: str, server: Sshd, mac: str, payload: Path, out: Path, log: Path) -> tuple[int, set[str]]:
    """`ssh ... cat` with the payload as stdin, its stdout to `out`: the
    exit status, and the sshd programs the server ran meanwhile."""
    command = ssh_command(ssh, server.port, server.keys, mac, "cat", rekey_limit=REKEY_LIMIT, log=log)
    with payload.open("rb") as stdin, out.open("wb") as stdout, ProcessWatcher(server.process.pid) as watcher:
        # subprocess.run kills this one child by PID on timeout.
        status = subprocess.run(
            command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL, timeout=SESSION_TIMEOUT_S
        ).returncode
    return status, watcher.programs


@functools.cache
def links_fastmac(path: str) -> bool:
    """`nm` of a program: fastmac's UMAC code and none of umac.c's (its
    static function nh_aux), as nm-check.sh reads it."""
    symbols = subprocess.run(["nm", path], capture_output=True, text=True, check=True, timeout=60).stdout
    return "7fastmac4umac" in symbols and not re.search(r" t nh_aux$", symbols, re.M)


def served_by_fastmac(server: Sshd, programs: set[str]) -> tuple[bool, str]:
    """Whether a session's server processes show the build's per-connection
    program, and only sshd programs that carry fastmac."""
    carrier = Path(server.sshd_session or server.binary).name
    names = sorted(programs)
    if not any(Path(exe).name == carrier for exe in names):
        return False, f"no {carrier} process seen"
    stock = [exe for exe in names if not links_fastmac(exe)]
    if stock:
        return False, "not fastmac: " + ", ".join(stock)
    return True, ", ".join(f"{Path(exe).parent.name}/{Path(exe).name}" for exe in names)


def negotiated_macs(log: str) -> set[tuple[str, str]]:
    return {(kex.cipher, kex.mac) for kex in key_exchanges(log)}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Outcome(NamedTuple):
    ok: bool  # transferred, and proven where a proof was asked for
    transferred: bool  # exit 0, the bytes back, the MAC in both logs, the rekeys
    proven: bool  # the server's processes were fastmac's (or no proof was asked for)


def session(
    direction: str, ssh: str, server: Sshd, mac: str, payload: Path, digest: str, prove: bool, quiet: bool = False
) -> Outcome:
    """One session; with `prove`, the server's processes must also show
    that fastmac served it."""
    work = server.work
    tag = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{direction}-{mac}")
    out, log = work / f"{tag}.out", work / f"{tag}.client.log"
    offset = server.log_size()
    status, programs = run_client(ssh, server, mac, payload, out, log)
    client_log = log.read_text(errors="replace")
    server.wait_for_kex(kex_count(client_log), offset, timeout=5)  # the server's last lines
    seen = {"client": negotiated_macs(client_log), "server": negotiated_macs(server.log_since(offset))}
    mac_confirmed = all(found == {(CIPHER, mac)} for found in seen.values())
    rekeys = kex_count(client_log) - 1
    match = out.stat().st_size == PAYLOAD_BYTES and sha256(out) == digest
    proven, processes = served_by_fastmac(server, programs) if prove else (True, "(Debian's sshd)")
    transferred = status == 0 and match and mac_confirmed and rekeys >= MIN_REKEYS
    ok = transferred and proven
    print(
        f"| {direction} | {mac} | {PAYLOAD_BYTES} each way | {'yes' if match else 'NO'} | {rekeys} | "
        f"{'yes' if mac_confirmed else 'NO ' + repr(seen)} | {processes if proven else 'NO: ' + processes} | "
        f"{'ok' if ok else 'FAILED (exit ' + str(status) + ')'} |",
        flush=True,
    )
    if not ok and not quiet:
        print(
            f"client log tail:\n{client_log[-2000:]}\nserver log tail:\n{server.log_since(offset)[-2000:]}",
            file=sys.stderr,
        )
    out.unlink()
    return Outcome(ok, transferred, proven)


def refused(what: str, ssh: str, server: Sshd, mac: str, payload: Path) -> bool:
    """A negative control: the session must fail, with a MAC error in the
    client's or the server's log."""
    work = server.work
    out, log = work / "flip.out", work / f"flip-{server.name}-{mac.replace('@', '_')}.client.log"
    offset = server.log_size()
    status, _ = run_client(ssh, server, mac, payload, out, log)
    server.wait_for_log(MAC_ERROR, timeout=5)
    logs = log.read_text(errors="replace") + server.log_since(offset)
    ok = status != 0 and MAC_ERROR in logs
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
        """sshd-session or sshd-auth, if this OpenSSH version has it."""
        path = self.dir / name
        return str(path) if path.exists() else None

    def server(
        self, work: Path, name: str, keys: Keys, session_from: Build | None = None, auth_from: Build | None = None
    ) -> Sshd:
        """This build's sshd, with the sshd-session and sshd-auth of this
        build or of the builds named."""
        return Sshd(
            work,
            keys,
            MACS,
            name=name,
            binary=self.sshd,
            sshd_session=(session_from or self).program("sshd-session"),
            sshd_auth=(auth_from or self).program("sshd-auth"),
            rekey_limit=REKEY_LIMIT,
        )


def server_controls(fastmac: Build, flip: Build, work: Path, keys: Keys, payload: Path) -> list[bool]:
    """Debian's ssh must be refused by a server whose MAC-computing programs
    flip their tags: all of them, then (OpenSSH 9.8 on) each alone."""
    split = fastmac.program("sshd-session") is not None
    servers = [("flipped-tag " + ("sshd-session and sshd-auth" if split else "sshd"), flip.server(work, "flip", keys))]
    if split:
        servers.append(("flipped-tag sshd-session only", fastmac.server(work, "flip-session", keys, session_from=flip)))
    if fastmac.program("sshd-auth") is not None:
        servers.append(("flipped-tag sshd-auth only", fastmac.server(work, "flip-auth", keys, auth_from=flip)))
    results = []
    for what, server in servers:
        with server:
            results.append(refused(f"Debian ssh -> {what}", DEBIAN_SSH, server, "umac-64-etm@openssh.com", payload))
    return results


def proof_control(fastmac: Build, stock: Build, work: Path, keys: Keys, payload: Path, digest: str) -> bool:
    """The fastmac sshd with the stock build's sshd-session and sshd-auth:
    the data goes through, and only the session check may fail it."""
    with fastmac.server(work, "stock-session", keys, session_from=stock, auth_from=stock) as mixed:
        outcome = session(
            "Debian ssh -> fastmac sshd, stock sshd-session", DEBIAN_SSH, mixed, "umac-64@openssh.com", payload,
            digest, prove=True, quiet=True,
        )  # fmt: skip
    caught = outcome.transferred and not outcome.proven
    print(
        f"| a stock sshd-session behind the fastmac sshd | umac-64@openssh.com | "
        f"transferred: {'yes' if outcome.transferred else 'NO'}, "
        f"failed by the session check: {'yes' if caught else 'NO'} |",
        flush=True,
    )
    return caught


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
    keys = make_keys(work)
    payload = work / "payload"
    payload.write_bytes(os.urandom(PAYLOAD_BYTES))
    digest = sha256(payload)

    results = []
    print(f"{args.label}, built with libfastmac, against Debian 12's ssh and sshd:")
    print(
        "| direction | MAC | bytes | SHA-256 match | rekeys (client) | MAC in both logs "
        "| server processes (nm: fastmac) | result |"
    )
    print("|---|---|---|---|---|---|---|---|")
    debian = Sshd(work, keys, MACS, name="debian", binary=DEBIAN_SSHD, rekey_limit=REKEY_LIMIT)
    with fastmac.server(work, "fastmac", keys) as ours, debian:
        for mac in MACS:
            results.append(session("fastmac ssh -> fastmac sshd", fastmac.ssh, ours, mac, payload, digest, True).ok)
            results.append(session("fastmac ssh -> Debian sshd", fastmac.ssh, debian, mac, payload, digest, False).ok)
            results.append(session("Debian ssh -> fastmac sshd", DEBIAN_SSH, ours, mac, payload, digest, True).ok)
        print("negative controls:")
        for mac in ("umac-64@openssh.com", "umac-128-etm@openssh.com"):
            results.append(refused("flipped-tag ssh -> fastmac sshd", flip.ssh, ours, mac, payload))
    results += server_controls(fastmac, flip, work, keys, payload)
    if fastmac.program("sshd-session") is not None:
        results.append(proof_control(fastmac, stock, work, keys, payload, digest))
    payload.unlink()
    # Every server above was stopped by its `with`, which returns once the
    # listener and each process it forked are gone (Sshd.stop): one still
    # running now is a leak, not a slow exit.
    left = leftover_servers(under=work)
    if left:
        print(f"sshd processes left running: {left}", file=sys.stderr)
        results.append(False)
    print(f"sessions: {sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
