"""Shared helpers of the Python tests: the repository's vector files, and
its one sshd harness (tests/ssh/sshd_harness.py) on the import path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
VECTORS = REPO / "tests" / "vectors"
sys.path.insert(0, str(REPO / "tests" / "ssh"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "ssh_session: a session with the real OpenSSH server or client (make test runs these on one CPython)",
    )


def rfc4418_vectors():
    """(key, nonce, [(message, {4: tag, 8: tag, 12: tag, 16: tag})]) from
    tests/vectors/rfc4418.txt."""
    key = nonce = None
    rows = []
    for line in (VECTORS / "rfc4418.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if fields[0] == "key":
            key = fields[1].encode()
        elif fields[0] == "nonce":
            nonce = fields[1].encode()
        else:
            pattern, repeat = fields[0], int(fields[1])
            message = (b"" if pattern == "-" else pattern.encode()) * repeat
            rows.append((message, {4: bytes.fromhex(fields[2]), 8: bytes.fromhex(fields[3]),
                                   12: bytes.fromhex(fields[4]), 16: bytes.fromhex(fields[5])}))
    return key, nonce, rows


@pytest.fixture(scope="session")
def rfc4418():
    return rfc4418_vectors()
