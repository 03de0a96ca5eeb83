"""Real SSH sessions through OpenSSH built with libfastmac (openssh.mk).

    sessions.py --fastmac DIR --flip DIR --work DIR

DIR holds `ssh` and `sshd` of one build (see link.sh). Every server is a
private sshd on 127.0.0.1 started by tests/ssh/sshd_harness.py (its own host
key, config, log, a free port). For each direction (fastmac ssh -> fastmac
sshd, fastmac ssh -> Debian's sshd, Debian's ssh -> fastmac sshd) and each
UMAC name, with cipher aes128-ctr (not an AEAD, so the MAC is used) and
the harness's RekeyLimit (768K) on both sides: 4 MiB each way through
`cat`, SHA-256 compared, the negotiated MAC read from both logs (every key
exchange), the rekeys counted. Then the negative control: the build whose
umac_final flips a tag bit must be refused with "Corrupted MAC on input".
Prints one table row per session and "sessions: N passed, N failed"; exit
status 1 on any failure.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "ssh"))
from sshd_harness import (  # noqa: E402
    CIPHER,
    REKEY_LIMIT,
    Keys,
    Sshd,
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
# 4 MiB each way at a 768 KiB rekey limit rekeys about 23 times; 16 is the
# least a working RekeyLimit can give.
MIN_REKEYS = 16


def run_client(ssh: str, server: Sshd, keys: Keys, mac: str, payload: Path, out: Path, log: Path) -> int:
    """`ssh ... cat` with the payload as stdin; its stdout to `out`."""
    command = ssh_command(ssh, server.port, keys, mac, "cat", rekey_limit=REKEY_LIMIT, log=log)
    with payload.open("rb") as stdin, out.open("wb") as stdout:
        # subprocess.run kills this one child by PID on timeout.
        return subprocess.run(command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL,
                              timeout=SESSION_TIMEOUT_S).returncode


def negotiated_macs(log: str) -> set[tuple[str, str]]:
    return {(kex.cipher, kex.mac) for kex in key_exchanges(log)}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def session(direction: str, ssh: str, server: Sshd, mac: str, payload: Path, digest: str) -> bool:
    work = server.work
    tag = f"{direction}-{mac}".replace("@", "_").replace(" ", "")
    out, log = work / f"{tag}.out", work / f"{tag}.client.log"
    offset = server.log_size()
    status = run_client(ssh, server, server.keys, mac, payload, out, log)
    client_log = log.read_text(errors="replace")
    server.wait_for_kex(kex_count(client_log), offset, timeout=5)  # the server's last lines
    seen = {"client": negotiated_macs(client_log), "server": negotiated_macs(server.log_since(offset))}
    mac_confirmed = all(found == {(CIPHER, mac)} for found in seen.values())
    rekeys = kex_count(client_log) - 1
    match = out.stat().st_size == PAYLOAD_BYTES and sha256(out) == digest
    ok = status == 0 and match and mac_confirmed and rekeys >= MIN_REKEYS
    print(f"| {direction} | {mac} | {PAYLOAD_BYTES} each way | {'yes' if match else 'NO'} | "
          f"{rekeys} | {'yes' if mac_confirmed else 'NO ' + repr(seen)} | {'ok' if ok else 'FAILED (exit ' + str(status) + ')'} |",
          flush=True)
    if not ok:
        print(f"client log tail:\n{client_log[-2000:]}\nserver log tail:\n{server.log_since(offset)[-2000:]}",
              file=sys.stderr)
    out.unlink()
    return ok


def negative_control(flip_ssh: str, server: Sshd, mac: str, payload: Path) -> bool:
    work = server.work
    out, log = work / "flip.out", work / f"flip-{mac.replace('@', '_')}.client.log"
    offset = server.log_size()
    status = run_client(flip_ssh, server, server.keys, mac, payload, out, log)
    server.wait_for_log("Corrupted MAC on input", timeout=5)
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
    ours = Sshd(work, keys, MACS, name="fastmac", binary=fastmac_sshd, rekey_limit=REKEY_LIMIT)
    debian = Sshd(work, keys, MACS, name="debian", binary=DEBIAN_SSHD, rekey_limit=REKEY_LIMIT)
    with ours, debian:
        for mac in MACS:
            results.append(session("fastmac ssh -> fastmac sshd", fastmac_ssh, ours, mac, payload, digest))
            results.append(session("fastmac ssh -> Debian sshd", fastmac_ssh, debian, mac, payload, digest))
            results.append(session("Debian ssh -> fastmac sshd", DEBIAN_SSH, ours, mac, payload, digest))
        for mac in ("umac-64@openssh.com", "umac-128-etm@openssh.com"):
            results.append(negative_control(flip_ssh, ours, mac, payload))
    payload.unlink()
    time.sleep(0.5)
    left = leftover_servers(under=work)
    if left:
        print(f"sshd processes left running: {left}", file=sys.stderr)
        results.append(False)
    print(f"sessions: {sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
