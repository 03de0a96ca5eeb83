"""What an ssh user gains: OpenSSH with its own umac.c against the same
OpenSSH with libfastmac, end to end on loopback (openssh.mk, make
bench-ssh; not part of make test).

    bench_ssh.py --stock DIR --fastmac DIR --work DIR [--pairs N] [--mib N]

DIR holds one build's programs (link.sh): its ssh connects to its own sshd
(with its own sshd-session and sshd-auth where the build has them) on
127.0.0.1, so both ends of a connection are of one build. Each transfer
moves N MiB (default 1024) of zeros one way: "up" is ssh's standard input
to `wc -c` on the server, "down" the server's `head -c` to ssh's standard
output, counted by `wc -c`; the count must be exact, and both logs' key
exchanges must name the setting's cipher and MAC. Settings: the default
cipher chacha20-poly1305 and aes128-gcm (AEADs: no MAC is computed, so
both builds run the same code), and aes128-ctr with umac-64-etm,
umac-128-etm and hmac-sha2-256-etm; no rekey limit (OpenSSH's default:
the cipher's own).

A pair is one transfer of each build, back to back, for one setting and
direction; the pairs' order alternates (stock first, then fastmac first),
and the settings interleave round by round, so that the host's slow
spells fall on both builds alike. A control pair runs identical code:
the stock build against a copy of itself, aes128-ctr with umac-64-etm;
its ratios show the noise.

Per transfer: MB/s (10^6 bytes per second of wall time, connection setup
included) and CPU seconds per GiB: the user + system time of ssh (its own,
from wait4) plus the server's, which is the listener's rusage as wait4
reports it once every per-connection process (sshd-session, sshd-auth, the
remote command) has exited and been reaped by it: one sshd is started per
transfer. The remote command (`wc -c` or `head -c`, the same in both
builds) is in the server's time. Prints per setting and direction the
medians of each build, and the median and range of the per-pair ratios
(fastmac / stock); the raw figures go to WORK/bench-ssh.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "ssh"))
from sshd_harness import Keys, Sshd, descendants, key_exchanges, make_keys, ssh_command  # noqa: E402

MIB = 1 << 20
#: (cipher, MAC): None for the AEADs, whose logs name the MAC "<implicit>".
SETTINGS = (
    ("chacha20-poly1305@openssh.com", None),
    ("aes128-gcm@openssh.com", None),
    ("aes128-ctr", "umac-64-etm@openssh.com"),
    ("aes128-ctr", "umac-128-etm@openssh.com"),
    ("aes128-ctr", "hmac-sha2-256-etm@openssh.com"),
)
CONTROL = ("aes128-ctr", "umac-64-etm@openssh.com")
#: What an AEAD server offers as MACs (unused: the cipher authenticates).
AEAD_MACS = "hmac-sha2-256-etm@openssh.com"
DIRECTIONS = ("up", "down")
TRANSFER_TIMEOUT_S = 600
REAP_TIMEOUT_S = 30


@dataclass
class Transfer:
    comparison: str  # "A / B": the two builds of the pair
    pair: int
    cipher: str
    mac: str
    direction: str
    build: str
    seconds: float
    client_cpu: float
    server_cpu: float
    bytes: int

    @property
    def mb_per_s(self) -> float:
        return self.bytes / 1e6 / self.seconds

    @property
    def cpu_per_gib(self) -> float:
        return (self.client_cpu + self.server_cpu) * (1 << 30) / self.bytes


def cpu(usage: os.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def server_for(build: Path, work: Path, keys: Keys, cipher: str, mac: str | None, name: str) -> Sshd:
    extra = {part: str(build / part) for part in ("sshd-session", "sshd-auth") if (build / part).exists()}
    return Sshd(work, keys, mac or AEAD_MACS, name=name, binary=str(build / "sshd"), cipher=cipher,
                rekey_limit=None, sshd_session=extra.get("sshd-session"), sshd_auth=extra.get("sshd-auth"))


def stop_reaped(server: Sshd) -> float:
    """Waits (bounded) until the listener has reaped every per-connection
    process, stops it and returns its CPU seconds with theirs."""
    process = server.process
    assert process is not None
    deadline = time.monotonic() + REAP_TIMEOUT_S
    while descendants(process.pid):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{server.binary}: per-connection processes still running after {REAP_TIMEOUT_S} s")
        time.sleep(0.02)
    process.terminate()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    server.process = None
    return cpu(usage)


def transfer(build: Path, label: str, comparison: str, pair: int, cipher: str, mac: str | None, direction: str,
             work: Path, keys: Keys, mib: int) -> Transfer:
    size = mib * MIB
    log = work / f"ssh-{label}.log"
    server = server_for(build, work, keys, cipher, mac, label).start()
    try:
        offset = server.log_size()
        remote = "wc -c" if direction == "up" else f"head -c {size} /dev/zero"
        argv = ssh_command(str(build / "ssh"), server.port, keys, mac or AEAD_MACS, remote, cipher=cipher,
                           rekey_limit=None, log=log)
        source = subprocess.Popen(["head", "-c", str(size), "/dev/zero"] if direction == "up" else ["true"],
                                  stdout=subprocess.PIPE)
        start = time.monotonic()
        client = subprocess.Popen(argv, stdin=source.stdout, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert source.stdout is not None and client.stdout is not None
        source.stdout.close()
        if direction == "up":
            counted = client.stdout.read()  # the server's count
        else:
            with subprocess.Popen(["wc", "-c"], stdin=client.stdout, stdout=subprocess.PIPE) as sink:
                counted, _ = sink.communicate(timeout=TRANSFER_TIMEOUT_S)
        client.stdout.close()
        _, status, usage = os.wait4(client.pid, 0)
        seconds = time.monotonic() - start
        client.returncode = os.waitstatus_to_exitcode(status)
        source.wait(timeout=TRANSFER_TIMEOUT_S)
        server_cpu = stop_reaped(server)
    finally:
        server.stop()
    # Up, ssh prints the server's count; down, the sink counts what ssh wrote.
    if client.returncode != 0 or int(counted.split()[0]) != size:
        raise RuntimeError(f"{label}: ssh exited {client.returncode}, {counted!r} bytes of {size}; see {log}")
    expected = mac or "<implicit>"
    for side, text in (("ssh", log.read_text(errors="replace")), ("sshd", server.log_since(offset))):
        kex = key_exchanges(text)
        if not kex or any((k.cipher, k.mac) != (cipher, expected) for k in kex):
            raise RuntimeError(f"{label}: {side} negotiated {kex}, not {cipher} with {expected}")
    return Transfer(comparison, pair, cipher, expected, direction, label, seconds, cpu(usage), server_cpu, size)


def setting_name(cipher: str, mac: str) -> str:
    short = cipher.split("@")[0]
    return short if mac == "<implicit>" else f"{short} + {mac.split('@')[0]}"


def summarize(results: list[Transfer], pairs: list[tuple[str, str, str, str]]) -> str:
    """One row per setting, direction and pair of builds."""
    lines = [
        "| setting | direction | builds (A / B) | A MB/s | B MB/s | B / A MB/s: median (min to max) "
        "| A CPU s/GiB | B CPU s/GiB | B / A CPU: median (min to max) |",
        "|---|---|---|---:|---:|---|---:|---:|---|",
    ]
    for cipher, mac, a, b in pairs:
        for direction in DIRECTIONS:
            runs = {build: sorted((t for t in results if (t.comparison, t.cipher, t.mac, t.direction, t.build)
                                   == (f"{a} / {b}", cipher, mac, direction, build)), key=lambda t: t.pair)
                    for build in (a, b)}
            if not runs[a]:
                continue
            rate = [y.mb_per_s / x.mb_per_s for x, y in zip(runs[a], runs[b])]
            cost = [y.cpu_per_gib / x.cpu_per_gib for x, y in zip(runs[a], runs[b])]
            lines.append(
                f"| {setting_name(cipher, mac)} | {direction} | {a} / {b} "
                f"| {statistics.median(t.mb_per_s for t in runs[a]):.0f} "
                f"| {statistics.median(t.mb_per_s for t in runs[b]):.0f} "
                f"| {statistics.median(rate):.2f}x ({min(rate):.2f} to {max(rate):.2f}) "
                f"| {statistics.median(t.cpu_per_gib for t in runs[a]):.2f} "
                f"| {statistics.median(t.cpu_per_gib for t in runs[b]):.2f} "
                f"| {statistics.median(cost):.2f}x ({min(cost):.2f} to {max(cost):.2f}) |"
            )
    return "\n".join(lines)


def cpu_model() -> str:
    """lscpu's model name, family and model."""
    fields = {}
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return f"{fields.get('Model name', '?')} (family {fields.get('CPU family', '?')} model {fields.get('Model', '?')})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stock", type=Path, required=True)
    parser.add_argument("--fastmac", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--mib", type=int, default=1024)
    args = parser.parse_args()
    work = args.work.resolve()
    shutil.rmtree(work, ignore_errors=True)  # keys, logs and results of an earlier run
    work.mkdir(parents=True)
    keys = make_keys(work / "keys")
    builds = {"stock": args.stock.resolve(), "fastmac": args.fastmac.resolve(), "stock-copy": work / "stock-copy"}
    shutil.copytree(builds["stock"], builds["stock-copy"])
    pairs = [(cipher, mac or "<implicit>", "stock", "fastmac") for cipher, mac in SETTINGS]
    pairs.append((*CONTROL, "stock", "stock-copy"))
    version = subprocess.run([str(builds["stock"] / "ssh"), "-V"], capture_output=True, text=True).stderr.strip()
    print(f"CPU: {cpu_model()}; {os.cpu_count()} CPUs; {version}; {args.pairs} pairs of {args.mib} MiB per "
          f"setting and direction; load average at start {os.getloadavg()[0]:.1f}", flush=True)
    results: list[Transfer] = []
    started = time.monotonic()
    for pair in range(args.pairs):
        for index, (cipher, mac, a, b) in enumerate(pairs):
            for direction in DIRECTIONS:
                order = (a, b) if (pair + index) % 2 == 0 else (b, a)
                for build in order:
                    t = transfer(builds[build], build, f"{a} / {b}", pair, cipher, None if mac == "<implicit>" else mac,
                                 direction, work, keys, args.mib)
                    results.append(t)
                    print(f"pair {pair + 1}: {setting_name(cipher, mac)} {direction} {build}: "
                          f"{t.mb_per_s:.0f} MB/s, {t.cpu_per_gib:.2f} CPU s/GiB "
                          f"(ssh {t.client_cpu:.2f}, server {t.server_cpu:.2f})", flush=True)
    (work / "bench-ssh.json").write_text(json.dumps([asdict(t) for t in results], indent=1))
    print(f"load average at end {os.getloadavg()[0]:.1f}; {time.monotonic() - started:.0f} s")
    print(summarize(results, pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
