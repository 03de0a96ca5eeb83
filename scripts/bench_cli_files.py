#!/usr/bin/env python3
"""Times `fastmac tag` on one file in the page cache against `cat`,
`b3sum` and `sha256sum`, and UMAC-128 in memory, in alternation, and reads
the file goals of docs/performance.md, "Tagging files", against them.

Each round runs every command once, in turn, so that load from other
processes falls on all of them alike; the figures are the medians over the
rounds of each command's wall time and CPU time (user + system), and each
ratio the median over the rounds of that round's ratio, as `fastmac
bench` takes its ratios (docs/performance.md, "How to measure"). The
in-memory figure is `fastmac bench`'s one-core UMAC-128 at 1 MiB (the
message in cache) and at the file's size, measured once per round too.
`b3sum` is taken from PATH or target/tools/bin (`cargo install b3sum
--root target/tools`); a command that is missing is reported and skipped.
Python 3 standard library only.

How the page cache holds the file moves every figure, `cat`'s too
(docs/performance.md, "Tagging files"): each round also maps the file, touches
one byte of every 4 KiB page and unmaps it, and the medians of those two
times say what the kernel's work per page cost in this run.

    scripts/bench_cli_files.py [--fastmac target/release/fastmac]
        [--size-mib 256] [--rounds 21] [--file PATH]
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import shutil
import statistics
import subprocess
import time

KEY = "000102030405060708090a0b0c0d0e0f"
ONE_THREAD = "fastmac umac-128, 1 thread"
TWO_THREADS = "fastmac umac-128, 2 threads"
CAT = "cat > /dev/null"
MIB = 1 << 20


def commands(fastmac: str, path: str) -> list[tuple[str, list[str]]]:
    tag = [fastmac, "tag", "--alg", "umac-128", "--key", KEY, "--nonce", "00"]
    found = [
        (ONE_THREAD, tag + ["--threads", "1", path]),
        (TWO_THREADS, tag + ["--threads", "2", path]),
        (CAT, ["cat", path]),
        ("sha256sum", ["sha256sum", path]),
    ]
    b3sum = shutil.which("b3sum") or shutil.which("b3sum", path="target/tools/bin")
    if b3sum:
        version = subprocess.run([b3sum, "--version"], capture_output=True, text=True).stdout.strip()
        found += [
            (f"{version}, 1 thread", [b3sum, "--num-threads", "1", path]),
            (f"{version}, 2 threads", [b3sum, "--num-threads", "2", path]),
        ]
    else:
        print("b3sum: not installed (cargo install b3sum --root target/tools), skipped")
    return found


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run, in seconds."""
    # /dev/null for writing only: subprocess.DEVNULL opens it for reading
    # and writing, which is how a closed stdout looks (docs/cli.md section 1).
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=null)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{argv[0]} exited with {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def paired(numerators: list[float], denominators: list[float]) -> float:
    """The median over rounds of one round's numerator over its denominator."""
    return statistics.median(n / d for n, d in zip(numerators, denominators, strict=True))


def page_work(path: str) -> tuple[float, float]:
    """Seconds to map `path` and touch one byte of every 4 KiB page (the
    faults that map them), and to unmap it: the kernel's work that a mapped
    read adds to the hashing, which depends on the folios the page cache
    holds the file in."""
    if os.path.getsize(path) == 0:
        return 0.0, 0.0  # nothing to map
    with open(path, "rb") as f:
        start = time.perf_counter()
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        _ = mapped[::4096]  # one byte per page, the loop in the interpreter's C code
        touched = time.perf_counter()
        mapped.close()
        return touched - start, time.perf_counter() - touched


def in_memory(fastmac: str, sizes: list[int]) -> dict[int, float]:
    """Seconds per message of fastmac's one-core UMAC-128 at each size."""
    argv = [fastmac, "bench", "--algs", "umac-128", "--sizes", ",".join(map(str, sizes)), "--seconds", "0.05", "--json"]
    run = json.loads(subprocess.run(argv, capture_output=True, check=True, text=True).stdout)
    return {r["size"]: r["ns_per_msg"] / 1e9 for r in run["results"] if r["impl"] == "fastmac"}


def cpu_model() -> str:
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


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
                out.write(os.urandom(MIB))
    size = os.path.getsize(path)
    runs = commands(args.fastmac, path)
    memory_sizes = [MIB, size]
    walls: dict[str, list[float]] = {name: [] for name, _ in runs}
    cpus: dict[str, list[float]] = {name: [] for name, _ in runs}
    memory: dict[int, list[float]] = {s: [] for s in memory_sizes}
    load_before = os.getloadavg()[0]
    pages: list[tuple[float, float]] = []
    for _ in range(2):  # warm the page cache and the binaries
        for _, argv in runs:
            timed(argv)
        page_work(path)
    for _ in range(args.rounds):
        for name, argv in runs:
            wall, cpu = timed(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
        pages.append(page_work(path))
        for s, seconds in in_memory(args.fastmac, memory_sizes).items():
            memory[s].append(seconds)
    median = {name: statistics.median(t) for name, t in walls.items()}
    print(f"CPU: {cpu_model()}, {os.cpu_count()} logical CPUs")
    print(
        f"{size} bytes, {args.rounds} rounds in alternation, "
        f"load average {load_before:.2f} before and {os.getloadavg()[0]:.2f} after"
    )
    print(f"{'command':<30} {'median (ms)':>12} {'CPU (ms)':>9} {'GB/s':>7} {'vs cat':>7}")
    for name, wall in median.items():
        cpu = statistics.median(cpus[name])
        vs_cat = paired(walls[CAT], walls[name])
        print(f"{name:<30} {wall * 1e3:>12.1f} {cpu * 1e3:>9.1f} {size / wall / 1e9:>7.2f} {vs_cat:>7.2f}")
    touch, unmap = (statistics.median(t) * 1e3 for t in zip(*pages))
    print(f"the kernel's work per page: mapping and touching every page {touch:.1f} ms, unmapping {unmap:.1f} ms")
    rate = {s: s / statistics.median(t) for s, t in memory.items()}
    for s in memory_sizes:
        print(f"UMAC-128 in memory, 1 core, {s} B messages (fastmac bench): {rate[s] / 1e9:.2f} GB/s")
    bound = min(size / median[CAT], rate[MIB])
    # Per round: the bound is that round's cat or in-memory rate, whichever is lower.
    bounds = [min(size / c, MIB / m) for c, m in zip(walls[CAT], memory[MIB], strict=True)]
    one_thread = paired([size / t for t in walls[ONE_THREAD]], bounds)
    print(
        f"fastmac 1 thread: {one_thread:.2f} of min(cat, UMAC-128 in memory at 1 MiB) "
        f"= {bound / 1e9:.2f} GB/s (goal: 0.80)"
    )
    print(f"fastmac 2 threads vs 1: {paired(walls[ONE_THREAD], walls[TWO_THREADS]):.2f}x (goal: 1.7x)")


if __name__ == "__main__":
    main()
