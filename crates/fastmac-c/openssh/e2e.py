"""End-to-end throughput of OpenSSH with its own umac.c against the same
OpenSSH with libfastmac (openssh.mk, bench-openssh-e2e).

    e2e.py --stock DIR --fastmac DIR --work DIR [--rounds N] [--mib N]

Each build's ssh sends N MiB (default 1024) of zeros to its own sshd on
127.0.0.1 (`cat > /dev/null` on the far side) over aes128-ctr and
umac-64-etm@openssh.com, no rekey limit; the builds alternate, round by
round. Prints the median MB/s of each and their ratio.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "ssh"))
from sshd_harness import Keys, Sshd, make_keys, ssh_command  # noqa: E402

MAC = "umac-64-etm@openssh.com"
TIMEOUT_S = 600


def transfer(ssh: str, server: Sshd, keys: Keys, mib: int, log: Path) -> float:
    """Seconds to push `mib` MiB through ssh."""
    command = ssh_command(ssh, server.port, keys, MAC, "cat > /dev/null", rekey_limit=None, log=log)
    start = time.monotonic()
    with subprocess.Popen(["head", "-c", f"{mib}M", "/dev/zero"], stdout=subprocess.PIPE) as source:
        status = subprocess.run(command, stdin=source.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                timeout=TIMEOUT_S).returncode
        source.stdout.close()
    elapsed = time.monotonic() - start
    if status != 0 or f"MAC: {MAC}" not in log.read_text(errors="replace"):
        raise RuntimeError(f"{ssh}: transfer failed (exit {status}); see {log}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stock", required=True)
    parser.add_argument("--fastmac", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mib", type=int, default=1024)
    args = parser.parse_args()
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)  # keys, logs and payload of an earlier run
    work.mkdir(parents=True)
    keys = make_keys(work)
    builds = {name: Path(d).resolve() for name, d in (("stock", args.stock), ("fastmac", args.fastmac))}
    rates: dict[str, list[float]] = {name: [] for name in builds}
    servers = {name: Sshd(work, keys, MAC, name=f"e2e-{name}", binary=str(d / "sshd"), rekey_limit=None)
               for name, d in builds.items()}
    with servers["stock"], servers["fastmac"]:
        for r in range(args.rounds):
            for name, d in builds.items():
                seconds = transfer(str(d / "ssh"), servers[name], keys, args.mib, work / f"e2e-{name}.log")
                rates[name].append(args.mib * 1.048576 / seconds)
                print(f"round {r + 1}: {name}: {rates[name][-1]:.0f} MB/s", flush=True)
    stock, fastmac = statistics.median(rates["stock"]), statistics.median(rates["fastmac"])
    print(f"| build | median MB/s ({args.rounds} x {args.mib} MiB, aes128-ctr + {MAC}) |")
    print("|---|---:|")
    print(f"| OpenSSH, its umac.c | {stock:.0f} |")
    print(f"| OpenSSH, libfastmac | {fastmac:.0f} |")
    print(f"fastmac / stock: {fastmac / stock:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
