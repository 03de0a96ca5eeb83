"""The stubs under ``mypy --strict``: tests/typing/good.py (correct use of
every API) passes, and every line of tests/typing/bad.py marked ``# E:``
(wrong types) is reported, and no other line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TYPING = Path(__file__).parent / "typing"


def mypy(path: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir", str(cache), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=TYPING,
    )


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("mypy-cache")


def test_mypy_strict_accepts_correct_use(cache):
    result = mypy(TYPING / "good.py", cache)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_mypy_strict_rejects_each_wrong_type(cache):
    source = (TYPING / "bad.py").read_text().splitlines()
    expected = {number for number, line in enumerate(source, 1) if re.search(r"  # E: ", line)}
    assert len(expected) >= 14
    result = mypy(TYPING / "bad.py", cache)
    assert result.returncode == 1, result.stdout + result.stderr
    reported = {int(m.group(1)) for m in re.finditer(r"^bad\.py:(\d+): error:", result.stdout, re.MULTILINE)}
    assert reported == expected, result.stdout
