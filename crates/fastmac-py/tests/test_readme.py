"""The package README's examples run as written (the PyPI page must not
lie): every ```python block except the paramiko and asyncssh ones, which
change those libraries process-wide and need a server (test_openssh.py and
test_asyncssh.py run them for real), in one namespace, in order."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.DOTALL)


def test_readme_examples_run():
    blocks = python_blocks()
    runnable = [b for b in blocks if "install()" not in b]
    assert len(blocks) >= 6 and len(runnable) >= 4
    namespace: dict[str, object] = {"new_key": bytes(range(16, 32))}
    for block in runnable:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 (our own README)
    assert namespace["tag"] and namespace["seq"] == 0


def test_readme_speed_table_is_filled_in():
    text = README.read_text()
    assert "SPEED_TABLE" not in text
    assert re.search(r"\| 1500 B \|.*SequencedUMAC", text)
