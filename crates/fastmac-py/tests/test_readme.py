"""The READMEs' Python examples run as written (the PyPI page must not
lie): every ```python block of the package README and of the repository
README compiles, and every one runs except the paramiko and asyncssh ones,
which change those libraries process-wide and need a server
(test_openssh.py and test_asyncssh.py run them for real). The package
README's blocks run in one namespace, in order; the repository README's
and docs/usage.md's run on placeholder values of the names they use."""

from __future__ import annotations

import os
import re
from pathlib import Path

from conftest import REPO

README = Path(__file__).resolve().parents[1] / "README.md"
ROOT_README = REPO / "README.md"
# The repository's guide, where the root README's longer examples live.
USAGE = REPO / "docs" / "usage.md"


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.DOTALL)


def runnable(blocks: list[str]) -> list[str]:
    return [b for b in blocks if "install()" not in b]


def test_readme_examples_run():
    blocks = python_blocks(README)
    assert len(blocks) >= 6 and len(runnable(blocks)) >= 4
    for block in blocks:
        compile(block, str(README), "exec")
    namespace: dict[str, object] = {"new_key": bytes(range(16, 32))}
    for block in runnable(blocks):
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 (our own README)
    assert namespace["tag"] and namespace["seq"] == 0


def test_repository_readme_examples_run():
    blocks = python_blocks(ROOT_README) + python_blocks(USAGE)
    assert len(blocks) >= 2 and len(runnable(blocks)) >= 1
    for block in blocks:
        compile(block, str(ROOT_README), "exec")
    for block in runnable(blocks):
        namespace: dict[str, object] = {
            "key": os.urandom(16),
            "nonce": (1).to_bytes(8, "big"),
            "data": os.urandom(3000),
            "chunk": bytearray(os.urandom(100)),
            "seq": 7,
            "packet": os.urandom(1500),
        }
        exec(compile(block, str(ROOT_README), "exec"), namespace)  # noqa: S102 (our own README)


def test_readme_speed_table_is_filled_in():
    text = README.read_text()
    assert "SPEED_TABLE" not in text
    assert re.search(r"\| 1500 B \|.*SequencedUMAC", text)
