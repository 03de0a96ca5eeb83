#!/usr/bin/env python3
"""Times `fastmac tag` on one file in the page cache against `cat`,
`sha256sum` and `b3sum` (when installed), in alternation.

Each round runs every command once, in turn, so that load from other
processes falls on all of them alike; the figures are the medians of the
wall times over the rounds, with the ratios that docs/performance.md
section 8 quotes. Commands that are not installed are reported and
skipped. Python 3 standard library only.

    scripts/bench_cli_files.py [--fastmac target/release/fastmac]
        [--size-mib 256] [--rounds 21] [--file PATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import time

KEY = "000102030405060708090a0b0c0d0e0f"


def commands(fastmac: str, path: str) -> list[tuple[str, list[str]]]:
    tag = [fastmac, "tag", "--alg", "umac-128", "--key", KEY, "--nonce", "00"]
    found = [
        ("fastmac umac-128, 1 thread", tag + ["--threads", "1", path]),
        ("fastmac umac-128, 2 threads", tag + ["--threads", "2", path]),
        ("cat > /dev/null", ["cat", path]),
        ("sha256sum", ["sha256sum", path]),
    ]
    b3sum = shutil.which("b3sum")
    if b3sum:
        found += [
            ("b3sum, 1 thread", [b3sum, "--num-threads", "1", path]),
            ("b3sum, 2 threads", [b3sum, "--num-threads", "2", path]),
        ]
    else:
        print("b3sum: not installed (cargo install b3sum), skipped")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fastmac", default="target/release/fastmac")
    parser.add_argument("--size-mib", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--file", help="the file to read (created with random bytes when absent)")
    args = parser.parse_args()
    path = args.file or f"target/bench-cli-files-{args.size_mib}m.bin"
    if not os.path.exists(path):
        with open(path, "wb") as out:
            for _ in range(args.size_mib):
                out.write(os.urandom(1 << 20))
    size = os.path.getsize(path)
    runs = commands(args.fastmac, path)
    times: dict[str, list[float]] = {name: [] for name, _ in runs}
    for _ in range(2):  # warm the page cache and the binaries
        for _, argv in runs:
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    for _ in range(args.rounds):
        for name, argv in runs:
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(f"{size} bytes, {args.rounds} rounds in alternation, load average {os.getloadavg()[0]:.2f}")
    print(f"{'command':<30} {'median (ms)':>12} {'GB/s':>7} {'vs cat':>7}")
    cat = medians["cat > /dev/null"]
    for name, median in medians.items():
        print(f"{name:<30} {median * 1e3:>12.1f} {size / median / 1e9:>7.2f} {cat / median:>7.2f}")
    one, two = medians["fastmac umac-128, 1 thread"], medians["fastmac umac-128, 2 threads"]
    print(f"fastmac 2 threads vs 1: {one / two:.2f}x")


if __name__ == "__main__":
    main()
