#!/usr/bin/env python3
"""Runs the tests that depend on threads, timing, sockets, ports or
subprocess scheduling many times while a CPU hog keeps every core busy, and
prints a table: test, runs, failures (make flake-hunt; docs/testing.md
section "Timing-sensitive tests and the flake hunt").

    flake_hunt.py [--scale F] [--only NAME[,NAME]] [--no-hog] \\
        --hunt NAME RUNS DIR COMMAND [--hunt ...]

Each --hunt runs the shell COMMAND in DIR (relative to the repository) RUNS
times (times F, at least 1), one run after another; a run fails when its
command exits non-zero or runs longer than --run-timeout seconds. Each
failed run's output is kept in target/flake-hunt/NAME.RUN.log. The hog is
one busy process per online CPU at the default priority, started before the
first run and stopped on every exit path. Exit status 1 when any run
failed, so a flake cannot hide behind a table that nobody reads.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOGS = REPO / "target" / "flake-hunt"
#: The hog: a busy loop, one process per CPU.
HOG = [sys.executable, "-c", "while True: pass"]


class Hog:
    """One busy process per online CPU, for the block's duration."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> "Hog":
        if self.enabled:
            for _ in range(os.cpu_count() or 1):
                self.processes.append(subprocess.Popen(HOG, stdin=subprocess.DEVNULL))
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait(timeout=10)

    def describe(self) -> str:
        if not self.enabled:
            return "no CPU hog (--no-hog)"
        return f"CPU hog: {len(self.processes)} busy processes ({' '.join(HOG[1:])!r}), one per online CPU"


def run_once(name: str, index: int, directory: Path, command: str, timeout: float) -> tuple[bool, float]:
    """One run: whether it passed, and its wall time. A failed run's output
    goes to target/flake-hunt/NAME.INDEX.log."""
    started = time.monotonic()
    with subprocess.Popen(
        ["bash", "-c", command],
        cwd=directory,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    ) as process:
        try:
            output, _ = process.communicate(timeout=timeout)
            passed = process.returncode == 0
            verdict = f"exit status {process.returncode}"
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            passed = False
            verdict = f"killed after {timeout:.0f} s"
    elapsed = time.monotonic() - started
    if not passed:
        LOGS.mkdir(parents=True, exist_ok=True)
        log = LOGS / f"{name}.{index}.log"
        log.write_bytes(f"$ (cd {directory} && {command})\n{verdict}\n".encode() + output)
        print(f"  {name} run {index}: FAILED ({verdict}); output in {log.relative_to(REPO)}", flush=True)
    return passed, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hunt", nargs=4, action="append", metavar=("NAME", "RUNS", "DIR", "COMMAND"), default=[])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every RUNS (default 1)")
    parser.add_argument("--only", default="", help="comma-separated names: run these only")
    parser.add_argument("--no-hog", action="store_true", help="run without the CPU hog")
    parser.add_argument("--run-timeout", type=float, default=1200.0, help="seconds one run may take (default 1200)")
    args = parser.parse_args()
    only = {name for name in args.only.split(",") if name}
    unknown = only - {hunt[0] for hunt in args.hunt}
    if unknown:
        parser.error(f"--only names no --hunt: {', '.join(sorted(unknown))}")
    if not args.hunt:
        parser.error("give at least one --hunt")

    rows = []
    with Hog(enabled=not args.no_hog) as hog:
        print(f"flake hunt: {hog.describe()}", flush=True)
        for name, runs_text, directory, command in args.hunt:
            if only and name not in only:
                continue
            runs = max(1, round(int(runs_text) * args.scale))
            print(f"== {name}: {runs} runs of `{command}` in {directory}", flush=True)
            outcomes = [run_once(name, i, REPO / directory, command, args.run_timeout) for i in range(1, runs + 1)]
            failures = sum(1 for passed, _ in outcomes if not passed)
            median = statistics.median(elapsed for _, elapsed in outcomes)
            rows.append((name, runs, failures, median))
            print(f"   {name}: {failures} of {runs} runs failed (median {median:.1f} s a run)", flush=True)

    width = max(len("test"), *(len(row[0]) for row in rows))
    print()
    print(f"{'test':<{width}}  {'runs':>5}  {'failures':>8}  {'median s':>8}")
    for name, runs, failures, median in rows:
        print(f"{name:<{width}}  {runs:>5}  {failures:>8}  {median:>8.1f}")
    total_runs = sum(row[1] for row in rows)
    total_failures = sum(row[2] for row in rows)
    print(f"flake hunt: {total_runs} runs, {total_failures} failed ({hog.describe()})")
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
