"""`make test`'s driver: runs each suite's make target in turn, times it,
and ends with one table.

    test.py MAKE TARGET...

Each TARGET (the Makefile's TEST_SUITES) runs as `MAKE TARGET`, so that a
failure stops that suite only and every other suite still runs. Its wall
time and CPU time (user + system of make and everything it waited for:
installs, builds, tests) make the phase table. Each suite's recipe records
its tests through scripts/suite.py (`$(SUITE)` in the Makefile) under
target/test-summary/, one record per suite, or one per part (`TARGET/PART`).

The table has a row per phase, with its passed, failed and skipped tests and
the reason of each skip; it is followed by the closing line
`total: N passed, N failed, N skipped`. The exit status is 1 when a phase
failed, when a suite failed, or when a phase recorded no test at all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY_DIR = ROOT / "target" / "test-summary"
LOG_DIR = ROOT / "target" / "test-logs"


def run_phase(make: str, target: str) -> dict:
    print(f"\n==== make {target}", flush=True)
    start = time.monotonic()
    process = subprocess.Popen([make, "--no-print-directory", target])
    _pid, status, usage = os.wait4(process.pid, 0)
    phase = {
        "target": target,
        "exit_status": os.waitstatus_to_exitcode(status),
        "wall_s": time.monotonic() - start,
        "cpu_s": usage.ru_utime + usage.ru_stime,
    }
    print(f"==== make {target}: exit {phase['exit_status']}, {phase['wall_s']:.0f} s wall, {phase['cpu_s']:.0f} s CPU",
          flush=True)
    return phase


def records() -> list[dict]:
    found = [json.loads(path.read_text()) for path in SUMMARY_DIR.glob("*.json")]
    return sorted(found, key=lambda record: record["started"])


def record_ok(record: dict) -> bool:
    return record["exit_status"] == 0 and record["failed"] == 0 and not record["problems"]


def belongs(record: dict, target: str) -> bool:
    return record["name"] == target or record["name"].startswith(target + "/")


def minutes(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def table(phases: list[dict], found: list[dict]) -> tuple[list[str], dict[str, int], bool]:
    """The summary's lines, the totals, and whether everything passed."""
    lines = [
        "| phase / suite | passed | failed | skipped | wall | CPU | result, and why each skip |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    all_ok = True
    for phase in phases:
        mine = [record for record in found if belongs(record, phase["target"])]
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
    wall = sum(phase["wall_s"] for phase in phases)
    cpu = sum(phase["cpu_s"] for phase in phases)
    lines.append(f"| **all** | {totals['passed']} | {totals['failed']} | {totals['skipped']} | "
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
    make, targets = sys.argv[1], sys.argv[2:]
    if not targets:
        print("test.py: no suites given", file=sys.stderr)
        return 2
    shutil.rmtree(SUMMARY_DIR, ignore_errors=True)
    shutil.rmtree(LOG_DIR, ignore_errors=True)
    phases = [run_phase(make, target) for target in targets]
    lines, totals, all_ok = table(phases, records())
    summary = "\n".join(lines)
    SUMMARY_DIR.mkdir(parents=True, exist_ok=True)
    (SUMMARY_DIR / "summary.txt").write_text(summary + "\n")
    print("\n==== make test: summary (target/test-summary/summary.txt; each suite's log in target/test-logs/)")
    print(summary)
    print(f"total: {totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
    if not all_ok:
        print("make test: FAILED (see the rows marked FAILED above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
