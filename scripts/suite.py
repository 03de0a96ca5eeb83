"""Runs one suite of `make test` and records what it ran, for the summary
table that `make test` ends with (scripts/test.py).

    suite.py NAME [--allow-empty TARGET]... [--expect PREFIX]... [--note TEXT]... -- COMMAND [ARG...]
    suite.py NAME --skip REASON

The command's output (stdout and stderr) goes to the terminal and to
target/test-logs/NAME.log; its passed, failed and skipped tests are counted
from what the test runners print, and the reason of each skip is kept:

* cargo test (libtest): every `test result:` line; an ignored test is a
  skip, its reason is the text after `ignored, `. A test target (a test
  file, a crate's unit tests or doc-tests) that ran no test fails the suite
  unless it is named with --allow-empty (a substring of its `Running` or
  `Doc-tests` line): a test file behind a lost `#![cfg(...)]` must not pass
  with zero tests, nor a filter that matches nothing. A test binary of
  several modules (crates/fastmac/tests/umac.rs) runs tests even when one
  module's `#![cfg(...)]` is lost: --expect PREFIX fails the suite unless a
  test whose name starts with PREFIX (`rfc4418::`) ran (libtest's default
  output names each test; `-q` does not).
* pytest (run it with `-rs`): its closing line, and the reason of each skip
  from the `SKIPPED [N] file:line: reason` lines.
* go test -v: the `--- PASS`, `--- FAIL` and `--- SKIP` lines (subtests
  included); the reason of a skip is the line that follows.
* unittest: `Ran N tests` and the `OK` or `FAILED (...)` line after it
  (with -v, the reason of each skip).
* anything else, such as a script: lines `N passed, N failed` or
  `N passed, N failed, N skipped` (one word and a colon may come first),
  and one line `SKIP: reason` per skip (scripts/checks.sh prints both).

The suite fails when the command exits non-zero, when a test failed, when
no test ran at all, or when a test target ran none. `--skip REASON` records
a suite that does not run here (one skip, with its reason) without running
anything. --note TEXT adds a line to the suite's row in the summary (what
it leaves to another suite, or checks in part). Wall time and CPU time (user + system, of the command and every
process it waited for) are recorded too: the phase table.

The record is target/test-summary/NAME.json; the exit status is 0 when the
suite passed, else 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY_DIR = ROOT / "target" / "test-summary"
LOG_DIR = ROOT / "target" / "test-logs"

LIBTEST_TARGET = re.compile(r"^\s+(Running (?:unittests )?\S+|Doc-tests \S+)")
LIBTEST_RESULT = re.compile(
    r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out"
)
LIBTEST_TEST = re.compile(r"^test (\S+) \.\.\. ")
LIBTEST_IGNORED = re.compile(r"^test (\S+) \.\.\. ignored(?:, (.*))?$")
PYTEST_CLOSING = re.compile(r"^=*\s*((?:\d+ (?:passed|failed|skipped|errors?|deselected|xfailed|xpassed|warnings?)(?:, )?)+) in [\d.]+s\b")
PYTEST_SKIPPED = re.compile(r"^SKIPPED \[(\d+)\] ([^:]+:\d+): (.*)$")
GO_RESULT = re.compile(r"^\s*--- (PASS|FAIL|SKIP): (\S+)")
GO_LOG = re.compile(r"^\s+(\S+\.go:\d+: .*)$")
UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in ")
UNITTEST_VERDICT = re.compile(r"^(OK|FAILED)(?: \((.*)\))?$")
UNITTEST_SKIPPED = re.compile(r"^(\S+) \(.*\).* \.\.\. skipped '(.*)'$")
PLAIN_CLOSING = re.compile(r"^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$")
PLAIN_SKIP = re.compile(r"^SKIP: (.*)$")


@dataclass
class Record:
    """What one suite ran, as the summary shows it."""

    name: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    skips: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    exit_status: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    started: float = 0.0

    @property
    def ok(self) -> bool:
        return self.exit_status == 0 and self.failed == 0 and not self.problems


@dataclass
class Counter:
    """Reads a suite's output line by line."""

    allow_empty: list[str]
    expected: list[str] = field(default_factory=list)
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    skips: list[str] = field(default_factory=list)
    empty_targets: list[str] = field(default_factory=list)
    target: str | None = None
    go_skip: str | None = None
    go_log: str | None = None
    unittest_ran: int | None = None

    def finish_go_skip(self, line: str | None) -> None:
        """A go test skip's reason: its t.Skip message, a log line that go
        test prints after the `--- SKIP` line, or before it when the test's
        output is printed as a tree (the log line last seen)."""
        match = GO_LOG.match(line or "")
        reason = match.group(1) if match else self.go_log
        self.skips.append(f"{self.go_skip}: {reason}" if reason else f"{self.go_skip}: no reason printed")
        self.go_skip, self.go_log = None, None

    def seen(self, test: str) -> None:
        """A libtest test ran: the expected prefixes it starts with are met."""
        self.expected = [prefix for prefix in self.expected if not test.startswith(prefix)]

    def feed(self, line: str) -> None:
        line = line.rstrip("\n")
        if self.go_skip is not None:
            self.finish_go_skip(line)
        if match := LIBTEST_TARGET.match(line):
            self.target = match.group(1)
        elif match := LIBTEST_RESULT.match(line):
            passed, failed, ignored, _measured, filtered = map(int, match.groups())
            self.passed, self.failed, self.skipped = self.passed + passed, self.failed + failed, self.skipped + ignored
            if passed + failed + ignored == 0:
                target = self.target or "a test binary"
                if not any(allowed in target for allowed in self.allow_empty):
                    self.empty_targets.append(target)
            self.target = None
        elif match := LIBTEST_IGNORED.match(line):
            self.skips.append(f"{match.group(1)}: {match.group(2) or 'ignored (no reason given)'}")
            self.seen(match.group(1))
        elif match := LIBTEST_TEST.match(line):
            self.seen(match.group(1))
        elif match := PYTEST_CLOSING.match(line):
            for count, word in re.findall(r"(\d+) (\w+)", match.group(1)):
                if word == "passed":
                    self.passed += int(count)
                elif word in ("failed", "error", "errors"):
                    self.failed += int(count)
                elif word == "skipped":
                    self.skipped += int(count)
        elif match := PYTEST_SKIPPED.match(line):
            self.skips.append(f"{match.group(2)}: {match.group(3)}" + (f" (x{match.group(1)})" if match.group(1) != "1" else ""))
        elif match := GO_RESULT.match(line):
            kind, test = match.groups()
            if kind == "PASS":
                self.passed += 1
            elif kind == "FAIL":
                self.failed += 1
            else:
                self.skipped += 1
                self.go_skip = test
        elif match := GO_LOG.match(line):
            self.go_log = match.group(1)
        elif match := UNITTEST_RAN.match(line):
            self.unittest_ran = int(match.group(1))
        elif self.unittest_ran is not None and (match := UNITTEST_VERDICT.match(line)):
            counts = {key: int(value) for key, value in re.findall(r"(\w+)=(\d+)", match.group(2) or "")}
            failed = counts.get("failures", 0) + counts.get("errors", 0) + counts.get("unexpected_successes", 0)
            skipped = counts.get("skipped", 0)
            self.passed += self.unittest_ran - failed - skipped
            self.failed += failed
            self.skipped += skipped
            self.unittest_ran = None
        elif match := UNITTEST_SKIPPED.match(line):
            self.skips.append(f"{match.group(1)}: {match.group(2)}")
        elif match := PLAIN_CLOSING.match(line.strip()):
            self.passed += int(match.group(1))
            self.failed += int(match.group(2))
            self.skipped += int(match.group(3) or 0)
        elif match := PLAIN_SKIP.match(line.strip()):
            self.skips.append(match.group(1))


def run(name: str, command: list[str], allow_empty: list[str], expected: list[str]) -> Record:
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    record = Record(name, started=time.time())
    counter = Counter(allow_empty, list(expected))
    start = time.monotonic()
    with (LOG_DIR / f"{name.replace('/', '~')}.log").open("w", buffering=1) as log:
        try:
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                       errors="replace", bufsize=1)
        except OSError as err:
            record.problems.append(f"cannot run {command[0]}: {err}")
            record.exit_status = 127
            return record
        assert process.stdout is not None
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            log.write(line)
            counter.feed(line)
        _pid, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if counter.go_skip is not None:
        counter.finish_go_skip(None)
    record.wall_s = time.monotonic() - start
    record.cpu_s = usage.ru_utime + usage.ru_stime
    record.exit_status = process.returncode
    record.passed, record.failed, record.skipped = counter.passed, counter.failed, counter.skipped
    record.skips = counter.skips
    if counter.empty_targets:
        record.problems.append("ran no test: " + "; ".join(counter.empty_targets))
    if counter.expected:
        record.problems.append("no test ran whose name starts with: " + ", ".join(counter.expected))
    if record.passed + record.failed + record.skipped == 0:
        record.problems.append("no test ran (no test runner's count in its output)")
    if record.skipped and not record.skips:
        record.problems.append(f"{record.skipped} skipped without a reason printed")
    return record


def write(record: Record) -> None:
    SUMMARY_DIR.mkdir(parents=True, exist_ok=True)
    (SUMMARY_DIR / f"{record.name.replace('/', '~')}.json").write_text(json.dumps(asdict(record), indent=1) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name")
    parser.add_argument("--allow-empty", action="append", default=[], metavar="TARGET")
    parser.add_argument("--expect", action="append", default=[], metavar="PREFIX")
    parser.add_argument("--skip", metavar="REASON")
    parser.add_argument("--note", action="append", default=[], metavar="TEXT")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    if args.skip is not None:
        if command:
            parser.error("--skip runs nothing: give no command")
        record = Record(args.name, skipped=1, skips=[args.skip], started=time.time())
        print(f"SKIP: {args.name}: {args.skip}")
    elif not command:
        parser.error("no command")
    else:
        record = run(args.name, command, args.allow_empty, args.expect)
    record.notes = args.note
    write(record)
    verdict = "passed" if record.ok else "FAILED"
    print(f"== {record.name}: {verdict}: {record.passed} passed, {record.failed} failed, {record.skipped} skipped"
          f" ({record.wall_s:.0f} s wall, {record.cpu_s:.0f} s CPU)"
          + ("".join(f"\n   {problem}" for problem in record.problems)))
    return 0 if record.ok else 1


if __name__ == "__main__":
    sys.exit(main())
