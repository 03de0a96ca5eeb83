#!/usr/bin/env python3
"""Tests of check_module_graph.py: small crate trees built here, each rule
with a tree that must pass and one that must fail (the negative controls),
and the repository's own crates/fastmac/src, which must pass."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_module_graph  # noqa: E402

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_module_graph.py")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A layered tree: lib.rs re-exports, a/mod.rs is a face, a/low.rs the
# bottom, a/high.rs uses it, b.rs uses a's face and the error module.
CLEAN = {
    "lib.rs": "mod a;\nmod b;\nmod error;\npub use error::Error;\npub use a::High;\n",
    "error.rs": "pub struct Error;\n",
    "a/mod.rs": "mod high;\nmod low;\npub use high::High;\npub(crate) use low::Low;\n",
    "a/low.rs": "pub(crate) struct Low;\npub(crate) fn make() -> crate::error::Error { crate::error::Error }\n",
    "a/high.rs": "use super::low::{self, Low};\npub struct High(Low);\npub fn go() { low::make(); }\n",
    "b.rs": "use crate::a::High;\nuse crate::error::Error;\npub fn f(_: High) -> Option<Error> { None }\n",
}


def findings(files: dict[str, str]) -> list[str]:
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as handle:
                handle.write(text)
        found, _, _ = check_module_graph.check(root)
        return [f.replace(root + "/", "") for f in found]


def changed(**files: str) -> dict[str, str]:
    return {**CLEAN, **{path.replace("__", "/").replace("_rs", ".rs"): text for path, text in files.items()}}


class Rules(unittest.TestCase):
    def test_a_layered_tree_passes(self):
        self.assertEqual(findings(CLEAN), [])

    def test_a_child_importing_its_parent_fails(self):
        found = findings(changed(a__low_rs="use super::High;\npub(crate) struct Low;\npub(crate) fn make() {}\n"))
        self.assertTrue(any("a/low.rs: imports `super::High` from its enclosing module a/mod.rs" in f for f in found), found)

    def test_the_crate_roots_reexport_is_an_enclosing_module(self):
        found = findings(changed(b_rs="use crate::Error;\npub fn f() -> Option<Error> { None }\n"))
        self.assertTrue(any("b.rs: imports `crate::Error` from its enclosing module lib.rs" in f for f in found), found)

    def test_a_cycle_between_siblings_fails(self):
        found = findings(
            changed(a__low_rs="use super::high::High;\npub(crate) struct Low;\npub(crate) fn make(_: High) {}\n")
        )
        self.assertTrue(any("import cycle among a/high.rs, a/low.rs" in f for f in found), found)

    def test_a_path_written_in_the_code_counts(self):
        # No `use`: the call names the sibling module, which imports back.
        found = findings(changed(a__low_rs="pub(crate) struct Low;\npub(crate) fn make() { super::high::go() }\n"))
        self.assertTrue(any("import cycle" in f and "`super::high::go`" in f for f in found), found)

    def test_braced_use_trees_and_renames_are_followed(self):
        found = findings(changed(a__low_rs="use crate::{a::high::{self as h}, error};\npub(crate) struct Low;\n"))
        self.assertTrue(any("import cycle among a/high.rs, a/low.rs" in f for f in found), found)

    def test_a_cycle_through_three_files_fails(self):
        found = findings(
            changed(
                error_rs="use crate::b::f;\npub struct Error;\n",
            )
        )
        self.assertTrue(any("import cycle among" in f and "error.rs" in f and "b.rs" in f for f in found), found)

    def test_test_modules_comments_and_strings_are_left_out(self):
        low = (
            "pub(crate) struct Low;\n"
            "// use super::High; in a comment\n"
            '/* use crate::Error; */ pub const S: &str = "use super::High;";\n'
            "#[cfg(test)]\nmod tests {\n    use super::super::High;\n    use crate::Error;\n}\n"
            "#[cfg(test)]\nmod more;\n"
        )
        self.assertEqual(findings(changed(a__low_rs=low, a__low__more_rs="use crate::Error;\n")), [])

    def test_an_inline_module_that_is_not_a_test_counts(self):
        low = "pub(crate) struct Low;\nmod inner {\n    use crate::a::High;\n}\n"
        found = findings(changed(a__low_rs=low))
        self.assertTrue(any("a/low.rs: imports `crate::a::High` from its enclosing module a/mod.rs" in f for f in found), found)


class CommandLine(unittest.TestCase):
    def run_checker(self, root: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True, check=False)

    def test_the_repository_passes(self):
        result = self.run_checker(os.path.join(ROOT, "crates/fastmac/src"))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("no cycle, no import of an enclosing module", result.stdout)

    def test_a_bad_tree_exits_one_and_names_the_import(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "a"))
            for path, text in {"lib.rs": "mod a;\npub fn top() {}\n", "a.rs": "use crate::top;\n"}.items():
                with open(os.path.join(root, path), "w", encoding="utf-8") as handle:
                    handle.write(text)
            result = self.run_checker(root)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("imports `crate::top` from its enclosing module", result.stdout)

    def test_a_missing_directory_is_an_error(self):
        result = self.run_checker("/nonexistent/src")
        self.assertEqual(result.returncode, 2)


if __name__ == "__main__":
    unittest.main()
