#!/usr/bin/env python3
"""Tests of check_references.py: for each kind of reference, a case that
must pass and a case that must fail, on small repositories built here.

This file holds bad references on purpose, so the checker skips it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_references  # noqa: E402

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_references.py")

NOTE = """# A note

## 1. First

### 1.2 Detail

## § 3 Third

## Many live keys

```console
# Not a heading
```
"""


class Fixture:
    """A repository of `files` (path -> text) in a temporary directory."""

    def __init__(self, files: dict[str, str]):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.files = {"docs/note.md": NOTE, "crates/lib/Cargo.toml": "[package]\n", **files}
        for path, text in self.files.items():
            full = os.path.join(self.root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as handle:
                handle.write(text)

    def findings(self, strict: bool = False) -> list[str]:
        return [str(f) for f in check_references.check(self.root, sorted(self.files), strict)]

    def close(self) -> None:
        self.tmp.cleanup()


def findings_for(text: str, path: str = "crates/lib/src/a.rs", strict: bool = False, **extra: str) -> list[str]:
    fixture = Fixture({path: text, **extra})
    try:
        return fixture.findings(strict)
    finally:
        fixture.close()


class FileReferences(unittest.TestCase):
    def test_existing_files_resolve_from_every_base(self):
        text = (
            "//! See docs/note.md, `note.md` (found in docs/), ../../../docs/note.md,\n"
            "//! tests/common/helper.rs (from the crate), crates/lib/src/ and the\n"
            "//! vectors in tests/vectors/one.txt.\n"
        )
        found = findings_for(
            text, **{"crates/lib/tests/common/helper.rs": "", "tests/vectors/one.txt": "1\n"}
        )
        self.assertEqual(found, [])

    def test_missing_md_file_is_reported(self):
        self.assertEqual(
            findings_for("//! See design/limits.md section 2.\n"),
            ["crates/lib/src/a.rs:1: design/limits.md: no such file in the repository"],
        )

    def test_missing_rooted_path_is_reported(self):
        self.assertEqual(
            findings_for("# vectors in tests/vectors/gone.txt\n", path="Makefile"),
            ["Makefile:1: tests/vectors/gone.txt: no such file or directory in the repository"],
        )

    def test_urls_and_globs_are_not_paths(self):
        text = "// https://example.org/docs/missing.md and target/wheels/fastmac-*.whl, crates/*/Cargo.toml\n"
        self.assertEqual(findings_for(text), [])

    def test_strict_mode_wants_the_docs_path_in_code(self):
        self.assertEqual(findings_for("//! note.md section 1.2\n", strict=False), [])
        self.assertEqual(
            findings_for("//! note.md section 1.2\n", strict=True),
            ["crates/lib/src/a.rs:1: note.md: no such file in the repository"],
        )
        self.assertEqual(findings_for("//! docs/note.md section 1.2\n", strict=True), [])


class SectionReferences(unittest.TestCase):
    def test_every_citation_form_of_existing_sections_passes(self):
        text = (
            "//! docs/note.md section 1.2, note.md 1, docs/note.md §3, docs/note.md\n"
            "//! sections 1 and 1.2, `docs/note.md` 1-1.2, note.md 1.2 step 3.\n"
        )
        self.assertEqual(findings_for(text), [])

    def test_missing_section_is_reported(self):
        self.assertEqual(
            findings_for("//! (docs/note.md 6.4)\n"),
            ["crates/lib/src/a.rs:1: docs/note.md section 6.4: no such numbered heading in docs/note.md"],
        )

    def test_wrapped_citation_and_range_end_are_checked(self):
        text = "//! the layouts of docs/note.md\n//! sections 1 and 7 measured best\n"
        self.assertEqual(
            findings_for(text),
            ["crates/lib/src/a.rs:1: docs/note.md section 7: no such numbered heading in docs/note.md"],
        )
        self.assertEqual(
            findings_for("# note.md 1.2-1.9\n", path="scripts/x.py"),
            ["scripts/x.py:1: note.md section 1.9: no such numbered heading in docs/note.md"],
        )

    def test_wrapped_string_literal_citation(self):
        text = '"# Conventions: docs/note.md\\n\\\n         # section 2 (byte order)"\n'
        self.assertEqual(
            findings_for(text),
            ["crates/lib/src/a.rs:1: docs/note.md section 2: no such numbered heading in docs/note.md"],
        )


class HeadingReferences(unittest.TestCase):
    def test_existing_headings_pass_with_or_without_their_number(self):
        text = (
            '//! docs/note.md, "Many live keys"; `docs/note.md`, "First"; the\n'
            '//! detail (docs/note.md, "1.2 Detail") and docs/note.md, "Detail";\n'
            '//! docs/note.md, "Third", and docs/note.md, "Many live\n'
            '//! keys" wrapped onto the next line.\n'
        )
        self.assertEqual(findings_for(text), [])
        self.assertEqual(findings_for('See docs/note.md, "Many live keys".\n', path="README.md"), [])

    def test_missing_heading_is_reported(self):
        self.assertEqual(
            findings_for('//! (docs/note.md, "Many keys")\n'),
            ['crates/lib/src/a.rs:1: docs/note.md, "Many keys": no such heading in docs/note.md'],
        )

    def test_heading_text_must_match_exactly(self):
        self.assertEqual(
            findings_for('//! docs/note.md, "many live keys"\n'),
            ['crates/lib/src/a.rs:1: docs/note.md, "many live keys": no such heading in docs/note.md'],
        )

    def test_lines_in_code_blocks_are_not_headings(self):
        self.assertEqual(
            findings_for('# docs/note.md, "Not a heading"\n', path="scripts/x.py"),
            ['scripts/x.py:1: docs/note.md, "Not a heading": no such heading in docs/note.md'],
        )

    def test_unnumbered_heading_cited_by_number_is_reported(self):
        self.assertEqual(
            findings_for("//! docs/note.md section 4 (many live keys)\n"),
            ["crates/lib/src/a.rs:1: docs/note.md section 4: no such numbered heading in docs/note.md"],
        )

    def test_quoted_names_in_code_are_not_heading_citations(self):
        self.assertEqual(findings_for('let notes = ["docs/note.md", "Many keys"];\n'), [])


class ForbiddenReferences(unittest.TestCase):
    def test_issue_numbers_are_reported(self):
        found = findings_for("// issue 3's bar\n// see issues 2-7\n// fixed in #12\n")
        self.assertEqual(len(found), 3, found)
        self.assertTrue(all("issue number" in f for f in found), found)
        self.assertEqual([f.split(":")[1] for f in found], ["1", "2", "3"])

    def test_hyphenated_and_prefixed_issue_numbers_are_reported(self):
        text = "// the issue-9 report\n// see issue_12\n// as PR#4 did\n// GH#7 (#27)\n"
        found = findings_for(text)
        self.assertEqual(
            sorted(f.split("(")[1].split(")")[0] for f in found),
            sorted(["'issue-9'", "'issue_12'", "'PR#4'", "'GH#7'", "'#27'"]),
        )

    def test_colours_attributes_and_urls_are_not_issues(self):
        text = (
            'let c = ["#1f77b4", "#555"]; style="color:#222"; #[derive(Debug)]\n'
            "// https://github.com/proftpd/proftpd/issues/1111 describes a tissue 3 times\n"
        )
        self.assertEqual(findings_for(text), [])

    def test_seed_numbers_and_names_are_reported(self):
        found = findings_for('// from seed 000\n// source: "004_72341b2efba80141.txt"\n')
        self.assertEqual(len(found), 2, found)
        self.assertTrue(all("seed reference" in f for f in found), found)

    def test_rng_seeds_and_numeric_literals_are_not_seeds(self):
        text = "let r = StdRng::seed_from_u64(0x0123_4567_89ab_cdef); let n = 1_000_000_000;\n"
        self.assertEqual(findings_for(text), [])

    def test_shared_paths_are_reported(self):
        found = findings_for("# see ../../shared/design/notes.txt\n", path="crates/lib/tests/t.py")
        self.assertEqual(found, ["crates/lib/tests/t.py:1: path outside the repository (shared/design/notes.txt)"])

    def test_pre_shared_keys_are_not_paths(self):
        self.assertEqual(findings_for("// a pre-shared/derived key\n"), [])


class CommandLine(unittest.TestCase):
    def run_checker(self, files: dict[str, str]) -> subprocess.CompletedProcess:
        fixture = Fixture(files)
        self.addCleanup(fixture.close)
        subprocess.run(["git", "init", "-q", fixture.root], check=True)
        subprocess.run(["git", "-C", fixture.root, "add", "."], check=True)
        return subprocess.run(
            [sys.executable, CHECKER, "--root", fixture.root], capture_output=True, text=True
        )

    def test_clean_repository_exits_0(self):
        result = self.run_checker({"README.md": 'See docs/note.md section 1.2 and docs/note.md, "Detail".\n'})
        self.assertEqual((result.returncode, result.stdout), (0, ""), result.stderr)

    def test_missing_heading_exits_1(self):
        result = self.run_checker({"README.md": 'See docs/note.md, "Few keys".\n'})
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, 'README.md:1: docs/note.md, "Few keys": no such heading in docs/note.md\n')

    def test_findings_exit_1_with_file_line_what(self):
        result = self.run_checker(
            {"README.md": "See docs/note.md section 1.2.\n\nAs issue 4 says.\n", "CHANGELOG.md": "issue 5\n"}
        )
        self.assertEqual(result.returncode, 1)
        self.assertEqual(
            result.stdout, "README.md:3: issue number ('issue 4'): cite the repository's docs instead\n"
        )
        self.assertIn("1 reference(s) do not resolve", result.stderr)


if __name__ == "__main__":
    unittest.main()
