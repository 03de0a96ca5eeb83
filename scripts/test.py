"""`make test`'s driver: runs each suite's make target, times it, and ends
with one table.

    test.py MAKE --lane "SUITE..." [--lane "SUITE..."]...

Each SUITE (the Makefile's TEST_SUITES) runs as `MAKE SUITE`, so that a
failure stops that suite only and every other suite still runs. The suites
of one lane run one after the other, in the order given; the lanes run side
by side (the Makefile's TEST_LANE_2: the suites that mostly wait, on SSH
sessions, emulators or valgrind, beside the ones that compile). Two suites
of different lanes share nothing that make builds but what cargo's and
apt's locks serialize (docs/testing.md section 1).

Each suite's wall time and CPU time (user + system of make and everything
it waited for: installs, builds, tests) make the phase table. With one
lane, each suite's output goes to the terminal; with more, to its log,
target/test-logs/SUITE.make.log, whose end is shown when the suite failed.
Each suite's recipe records its tests through scripts/suite.py (`$(SUITE)`
in the Makefile) under target/test-summary/, one record per suite, or one
per part (`SUITE/PART`).

The table has a row per suite, in the order they started, with its passed,
failed and skipped tests and the reason of each skip; its last row gives
the whole run's wall time and the sum of the CPU times. The closing line is
`total: N passed, N failed, N skipped`. The exit status is 1 when a suite
failed, or when a suite recorded no test at all.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY_DIR = ROOT / "target" / "test-summary"
LOG_DIR = ROOT / "target" / "test-logs"
FAILED_LOG_LINES = 60

print_lock = threading.Lock()


def say(text: str) -> None:
    with print_lock:
        print(text, flush=True)


def run_phase(make: str, target: str, lane: int, stream: bool) -> dict:
    """`make TARGET`, its output to its log (and to the terminal when
    `stream`); its exit status, wall time and CPU time."""
    log_path = LOG_DIR / f"{target}.make.log"
    say(f"\n==== make {target}" + ("" if stream else f" (lane {lane}; output in {log_path.relative_to(ROOT)})"))
    start_wall, start = time.time(), time.monotonic()
    with log_path.open("w", buffering=1) as log:
        process = subprocess.Popen([make, "--no-print-directory", target], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1)
        assert process.stdout is not None
        for line in process.stdout:
            log.write(line)
            if stream:
                sys.stdout.write(line)
                sys.stdout.flush()
        _pid, status, usage = os.wait4(process.pid, 0)
    phase = {
        "target": target,
        "exit_status": os.waitstatus_to_exitcode(status),
        "started": start_wall,
        "wall_s": time.monotonic() - start,
        "cpu_s": usage.ru_utime + usage.ru_stime,
    }
    report = (f"==== make {target}: exit {phase['exit_status']}, {phase['wall_s']:.0f} s wall, "
              f"{phase['cpu_s']:.0f} s CPU")
    if phase["exit_status"] != 0 and not stream:
        tail = log_path.read_text(errors="replace").splitlines()[-FAILED_LOG_LINES:]
        report += f"; the end of {log_path.relative_to(ROOT)}:\n" + "\n".join(tail)
    say(report)
    return phase


def run_lane(make: str, targets: list[str], lane: int, stream: bool, phases: list[dict]) -> None:
    for target in targets:
        phase = run_phase(make, target, lane, stream)
        with print_lock:
            phases.append(phase)


def records() -> list[dict]:
    return [json.loads(path.read_text()) for path in SUMMARY_DIR.glob("*.json")]


def record_ok(record: dict) -> bool:
    return record["exit_status"] == 0 and record["failed"] == 0 and not record["problems"]


def belongs(record: dict, target: str) -> bool:
    return record["name"] == target or record["name"].startswith(target + "/")


def minutes(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def table(phases: list[dict], found: list[dict], wall: float) -> tuple[list[str], dict[str, int], bool]:
    """The summary's lines, the totals, and whether everything passed."""
    lines = [
        "| phase / suite | passed | failed | skipped | wall | CPU | result, and why each skip |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    all_ok = True
    for phase in sorted(phases, key=lambda phase: phase["started"]):
        mine = sorted((record for record in found if belongs(record, phase["target"])),
                      key=lambda record: record["started"])
        notes = []
        if phase["exit_status"] != 0:
            notes.append(f"FAILED (make exit {phase['exit_status']})")
        if not mine:
            notes.append("FAILED: recorded no test (its recipe must run its tests through $(SUITE))")
        ok = phase["exit_status"] == 0 and bool(mine) and all(record_ok(record) for record in mine)
        all_ok &= ok
        counts = {key: sum(record[key] for record in mine) for key in totals}
        for key in totals:
            totals[key] += counts[key]
        whole = [record for record in mine if record["name"] == phase["target"]]
        if whole:
            notes += describe(whole[0])
        lines.append(
            f"| {phase['target']} | {counts['passed']} | {counts['failed']} | {counts['skipped']} | "
            f"{minutes(phase['wall_s'])} | {minutes(phase['cpu_s'])} | {'; '.join(notes) or ('ok' if ok else '')} |"
        )
        for record in mine:
            if record["name"] == phase["target"]:
                continue
            lines.append(
                f"| &nbsp;&nbsp;{record['name']} | {record['passed']} | {record['failed']} | {record['skipped']} | "
                f"{minutes(record['wall_s'])} | {minutes(record['cpu_s'])} | {'; '.join(describe(record))} |"
            )
    cpu = sum(phase["cpu_s"] for phase in phases)
    lines.append(f"| **all** (wall: the whole run) | {totals['passed']} | {totals['failed']} | {totals['skipped']} | "
                 f"{minutes(wall)} | {minutes(cpu)} | {'ok' if all_ok else 'FAILED'} |")
    return lines, totals, all_ok


def describe(record: dict) -> list[str]:
    """A record's verdict and skip reasons, for the last column."""
    notes = []
    if not record_ok(record):
        notes.append("FAILED" + (f" (exit {record['exit_status']})" if record["exit_status"] else ""))
    notes += record["problems"]
    notes += [f"skipped: {reason}" for reason in record["skips"]]
    notes += [f"note: {note}" for note in record.get("notes", [])]
    return notes or ["ok"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("make")
    parser.add_argument("--lane", action="append", default=[], metavar="SUITES",
                        help="suites run one after the other, beside the other lanes")
    args = parser.parse_args()
    lanes = [lane.split() for lane in args.lane if lane.split()]
    if not lanes:
        parser.error("no suites given")
    suites = [suite for lane in lanes for suite in lane]
    if len(set(suites)) != len(suites):
        parser.error(f"a suite is in two lanes, or twice in one: {suites}")
    shutil.rmtree(SUMMARY_DIR, ignore_errors=True)
    shutil.rmtree(LOG_DIR, ignore_errors=True)
    LOG_DIR.mkdir(parents=True)
    stream = len(lanes) == 1
    phases: list[dict] = []
    start = time.monotonic()
    threads = [threading.Thread(target=run_lane, args=(args.make, lane, number, stream, phases))
               for number, lane in enumerate(lanes, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - start
    lines, totals, all_ok = table(phases, records(), wall)
    summary = "\n".join(lines)
    SUMMARY_DIR.mkdir(parents=True, exist_ok=True)
    (SUMMARY_DIR / "summary.txt").write_text(summary + "\n")
    print(f"\n==== make test: summary, {len(lanes)} lane(s) (target/test-summary/summary.txt; "
          "each suite's log in target/test-logs/)")
    print(summary)
    print(f"total: {totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
    if not all_ok:
        print("make test: FAILED (see the rows marked FAILED above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
