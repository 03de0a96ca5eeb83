#!/usr/bin/env python3
"""Fails on references that lead outside the repository.

Every file `git ls-files` lists is scanned (the change log, this checker's
own test, and binary files excepted) for:

- a cited repository file that does not exist: any `*.md` name, and any path
  under crates/, tests/, docs/, scripts/ or fuzz/. A path resolves if it
  names a tracked file or directory relative to the citing file's directory
  or one of its ancestors (the repository root among them), to a crate's
  directory (one holding Cargo.toml or pyproject.toml), or to docs/. With
  --strict, docs/ is a base only for files inside docs/, so code must cite
  a note by its path ("docs/gears.md"), not by its bare file name;
- a numbered section of a Markdown file ("docs/gears.md section 6.4",
  "docs/gears.md 6.4", "docs/gears.md §6.4", ranges "6.6-6.8", lists
  "2.3 and 6.2") that has no numbered heading in that file;
- a section cited by its heading, the note's name, a comma and the heading
  in double quotes ('docs/performance.md, "Many live keys"'), where no
  heading of that file reads so: the heading's text, with or without its
  number ("## 9. Timing-sensitive tests" is cited as "Timing-sensitive
  tests"), spaces and line breaks counting as one space;
- issue numbers: the word issue and a number joined by a space, a hyphen
  or an underscore; PR or GH, the sign # and a number; or a bare # and a
  number,
  seed numbers and seed file names, and any shared/ path: they mean nothing
  to a reader of the repository.

A citation may wrap onto the next comment line. URLs are public sources and
are not checked. Prints one `file:line: what` per finding and exits 1 if
there is any. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import PurePosixPath

# Files whose text is not a claim about the repository: the change log
# records history (matched by stem and suffix, so this line names no file),
# and the checker's test holds bad references on purpose.
EXCLUDED_NAMES = {("CHANGELOG", ".md")}
EXCLUDED_PATHS = {"scripts/test_check_references.py"}

# Roots whose paths are checked when cited (besides any *.md name).
PATH_ROOTS = ("crates", "tests", "docs", "scripts", "fuzz")

URL = re.compile(r"(?:https?|ftp)://[^\s)\"'`>\]]+|\bwww\.[^\s)\"'`>\]]+")

# Leading comment markers removed when a citation wraps onto the next line.
COMMENT_LEADER = re.compile(r"^\s*(?://[/!]?|#+|\*+|--|;+|>+)?\s*")

_PATH_CHARS = r"[A-Za-z0-9_.+-]"
MD_NAME = re.compile(
    rf"(?<![\w/.:@-])((?:\.\.?/)*(?:{_PATH_CHARS}+/)*{_PATH_CHARS}*[A-Za-z0-9_-]\.md)(?![\w/-])"
)
ROOTED_PATH = re.compile(
    rf"(?<![\w/.:@$-])((?:{'|'.join(PATH_ROOTS)})/(?:{_PATH_CHARS}+/?)*)"
)
# What may stand between a note's name and its section number: closing
# quotes, "section(s)", "§", a wrapped string literal's "\n\".
SECTION_REF = re.compile(
    r"""(?:[`'"]|\\n|\\|\s)*(?:,\s*)?(?:\((?:project )?design notes?\)\s*[:,]?\s*)?"""
    r"(?:sections?\s*|§\s*)?"
    r"(\d+(?:\.\d+)*(?:\s*(?:-|–|,|and|or)\s*(?:sections?\s*|§\s*)?\d+(?:\.\d+)*)*)"
    r"(?![\w/])"
)
SECTION_NUMBER = re.compile(r"\d+(?:\.\d+)*")
HEADING = re.compile(r"^#{1,6}\s+(?:§\s*)?(\d+(?:\.\d+)*)\.?[\s):]")
# A citation by heading: the note's name, an optional closing backtick, a
# comma and the heading's text in double quotes.
HEADING_REF = re.compile(r'`?,\s*"([^"]{1,200})"')
# A Markdown heading's text, and the same text without a leading number.
HEADING_TEXT = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
HEADING_NUMBER = re.compile(r"^(?:§\s*)?\d+(?:\.\d+)*\.?\s+")
FENCE = re.compile(r"^\s*(```|~~~)")

ISSUE = re.compile(
    r"\b(?:issues?|pr|gh)(?:\s+#?|[-_]#?|#)\d+|(?<![\w\"':=&#/\\-])#\d+(?![\w-])",
    re.IGNORECASE,
)
SEED = re.compile(r"\bseeds?\s+#?\d{3}\b|\b\d{3}_[0-9a-f]{8,}\b", re.IGNORECASE)
SHARED = re.compile(r"(?<![\w.-])shared/[\w./-]+")


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


class Flat:
    """A file's lines joined into one string, comment leaders removed, so a
    citation that wraps onto the next comment line is still one match."""

    def __init__(self, text: str):
        parts, starts, offset = [], [], 0
        for number, line in enumerate(text.split("\n")):
            body = line if number == 0 else COMMENT_LEADER.sub("", line, count=1)
            starts.append(offset)
            parts.append(body)
            offset += len(body) + 1
        self.text = URL.sub(lambda m: " " * len(m.group(0)), " ".join(parts))
        self._starts = starts

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)


class Repository:
    def __init__(self, root: str, files: list[str], strict: bool = False):
        self.root = root
        self.files = set(files)
        self.dirs = {str(parent) for f in files for parent in PurePosixPath(f).parents if str(parent) != "."}
        self.crates = sorted(
            PurePosixPath(f).parent for f in files if PurePosixPath(f).name in ("Cargo.toml", "pyproject.toml")
        )
        self.strict = strict
        self._headings: dict[str, set[str]] = {}
        self._titles: dict[str, set[str]] = {}

    def resolve(self, citing: str, cited: str) -> str | None:
        """The tracked path `cited` names from `citing`, or None."""
        cited = cited.rstrip("/")
        bases = [PurePosixPath(citing).parent]
        bases += list(PurePosixPath(citing).parent.parents)
        bases += self.crates
        if not self.strict or citing.startswith("docs/"):
            bases.append(PurePosixPath("docs"))
        for base in bases:
            candidate = os.path.normpath(str(base / cited))
            if candidate.startswith(".."):
                continue
            if candidate in self.files or candidate in self.dirs:
                return candidate
        return None

    def headings(self, path: str) -> set[str]:
        if path not in self._headings:
            numbers = set()
            text = read_text(os.path.join(self.root, path)) or ""
            for line in text.split("\n"):
                match = HEADING.match(line)
                if match:
                    numbers.add(match.group(1))
            self._headings[path] = numbers
        return self._headings[path]

    def titles(self, path: str) -> set[str]:
        """The texts of the headings of `path` (outside code blocks), each
        with and without its number, spaces collapsed."""
        if path not in self._titles:
            titles, fenced = set(), False
            text = read_text(os.path.join(self.root, path)) or ""
            for line in text.split("\n"):
                if FENCE.match(line):
                    fenced = not fenced
                    continue
                match = None if fenced else HEADING_TEXT.match(line)
                if match:
                    title = collapse(match.group(1))
                    titles.add(title)
                    titles.add(HEADING_NUMBER.sub("", title, count=1))
            self._titles[path] = titles
        return self._titles[path]


def collapse(text: str) -> str:
    return " ".join(text.split())


def read_text(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def check_file(repo: Repository, path: str) -> list[Finding]:
    text = read_text(os.path.join(repo.root, path))
    if text is None:
        return []
    flat = Flat(text)
    findings: list[Finding] = []

    def add(offset: int, what: str) -> None:
        findings.append(Finding(path, flat.line_of(offset), what))

    seen_paths = set()
    for match in MD_NAME.finditer(flat.text):
        cited = match.group(1)
        target = repo.resolve(path, cited)
        if target is None:
            add(match.start(1), f"{cited}: no such file in the repository")
            continue
        seen_paths.add(match.start(1))
        heading = HEADING_REF.match(flat.text, match.end(1))
        if heading:
            title = collapse(heading.group(1))
            if title not in repo.titles(target):
                add(match.start(1), f'{cited}, "{title}": no such heading in {target}')
            continue
        sections = SECTION_REF.match(flat.text, match.end(1))
        if not sections:
            continue
        for number in SECTION_NUMBER.findall(sections.group(1)):
            if number not in repo.headings(target):
                add(match.start(1), f"{cited} section {number}: no such numbered heading in {target}")

    for match in ROOTED_PATH.finditer(flat.text):
        cited = match.group(1).rstrip(".,;:")
        if cited.endswith(".md") or any(c in cited for c in "*$%{<"):
            continue  # *.md names were checked above; globs and variables are not paths
        if repo.resolve(path, cited) is None:
            add(match.start(1), f"{cited}: no such file or directory in the repository")

    for match in ISSUE.finditer(flat.text):
        add(match.start(), f"issue number ({match.group(0)!r}): cite the repository's docs instead")
    for match in SEED.finditer(flat.text):
        add(match.start(), f"seed reference ({match.group(0)!r}): cite the paper by title and section")
    for match in SHARED.finditer(flat.text):
        add(match.start(), f"path outside the repository ({match.group(0)})")
    return findings


def check(root: str, files: list[str], strict: bool = False) -> list[Finding]:
    repo = Repository(root, files, strict)
    findings: list[Finding] = []
    for path in sorted(files):
        name = PurePosixPath(path)
        if path in EXCLUDED_PATHS or (name.stem, name.suffix) in EXCLUDED_NAMES:
            continue
        findings.extend(check_file(repo, path))
    return sorted(set(findings))


def tracked_files(root: str) -> list[str]:
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
    return [name for name in out.decode("utf-8").split("\0") if name]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    parser.add_argument(
        "--strict", action="store_true", help="code must cite a note by its path (docs/gears.md), not by a bare name"
    )
    args = parser.parse_args(argv)
    findings = check(args.root, tracked_files(args.root), args.strict)
    for finding in findings:
        print(finding)
    if findings:
        print(f"{len(findings)} reference(s) do not resolve inside the repository", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
