"""The wheel as a user downloads it: its tags (abi3, manylinux2014), the
glibc symbol versions its extension needs, its metadata (home page,
authors, licence expression), the licence files, and a RECORD that matches
its contents. Opens the wheel `make python-wheel` built (target/wheels), or
the file named by FASTMAC_WHEEL; the installed package's metadata must be
the wheel's."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import os
import re
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path

import pytest

import fastmac
from conftest import REPO

PACKAGE_FILES = {
    "__init__.py", "_fastmac.abi3.so", "_fastmac.pyi", "py.typed", "compat.py", "ssh.py", "badger.py",
    "paramiko.py", "asyncssh.py",
}
LICENCES = ("LICENSE-MIT", "LICENSE-APACHE")
# manylinux2014 is glibc 2.17: no symbol of a later glibc may be needed.
GLIBC_MAX = (2, 17)


@pytest.fixture(scope="module")
def wheel() -> zipfile.ZipFile:
    named = os.environ.get("FASTMAC_WHEEL")
    paths = [Path(named)] if named else sorted((REPO / "target" / "wheels").glob("fastmac-*.whl"))
    assert len(paths) == 1, f"expected one wheel, found {paths} (run make python-wheel)"
    with zipfile.ZipFile(paths[0]) as archive:
        yield archive


def dist_info(wheel: zipfile.ZipFile) -> str:
    return f"fastmac-{fastmac.__version__}.dist-info"


def metadata(wheel: zipfile.ZipFile) -> Message:
    return Parser().parsestr(wheel.read(f"{dist_info(wheel)}/METADATA").decode())


def test_tags_are_abi3_and_manylinux2014(wheel):
    name = Path(wheel.filename).name
    assert re.fullmatch(r"fastmac-[0-9.]+-cp311-abi3-manylinux2014_(\w+)\.manylinux_2_17_\1\.whl", name), name
    fields = Parser().parsestr(wheel.read(f"{dist_info(wheel)}/WHEEL").decode())
    assert fields["Root-Is-Purelib"] == "false"
    tags = fields.get_all("Tag")
    assert tags and all(re.fullmatch(r"cp311-abi3-manylinux(2014|_2_17)_\w+", t) for t in tags), tags


def test_the_extension_needs_nothing_past_glibc_2_17(wheel):
    extension = wheel.read("fastmac/_fastmac.abi3.so")
    assert extension[:4] == b"\x7fELF"
    versions = {tuple(map(int, v)) for v in re.findall(rb"GLIBC_(\d+)\.(\d+)", extension)}
    assert versions, "no versioned glibc symbol found: not a glibc build?"
    assert max(versions) <= GLIBC_MAX, sorted(versions)


def test_metadata_is_complete(wheel):
    fields = metadata(wheel)
    assert fields["Name"] == "fastmac"
    assert fields["Version"] == fastmac.__version__
    assert fields["Summary"]
    assert fields["Author"] == "The fastmac developers"
    assert fields["License-Expression"] == "MIT OR Apache-2.0"
    assert fields["Home-page"].startswith("https://"), fields["Home-page"]
    assert fields["Requires-Python"] == ">=3.11"
    assert sorted(fields.get_all("License-File", [])) == sorted(LICENCES)
    readme = (REPO / "crates" / "fastmac-py" / "README.md").read_text()
    assert fields.get_payload().strip() == readme.strip()


def test_licence_files_are_the_repositorys(wheel):
    for name in LICENCES:
        assert wheel.read(f"{dist_info(wheel)}/licenses/{name}") == (REPO / name).read_bytes(), name


def test_files_and_record(wheel):
    names = set(wheel.namelist())
    assert {f"fastmac/{f}" for f in PACKAGE_FILES} <= names
    assert not [n for n in names if n.startswith("fastmac/") and n[len("fastmac/") :] not in PACKAGE_FILES]
    record = wheel.read(f"{dist_info(wheel)}/RECORD").decode().splitlines()
    listed = {}
    for line in record:
        path, digest, _size = line.rsplit(",", 2)
        listed[path] = digest
    assert set(listed) == names
    for path, digest in listed.items():
        if path.endswith("/RECORD"):
            assert digest == ""
            continue
        algorithm, _, value = digest.partition("=")
        assert algorithm == "sha256", path
        actual = base64.urlsafe_b64encode(hashlib.sha256(wheel.read(path)).digest()).rstrip(b"=").decode()
        assert actual == value, path


def test_the_installed_package_is_this_wheel(wheel):
    installed = importlib.metadata.metadata("fastmac")
    fields = metadata(wheel)
    for key in ("Name", "Version", "Author", "License-Expression", "Home-page"):
        assert installed[key] == fields[key], key
    installed_files = {str(f) for f in importlib.metadata.files("fastmac") or []}
    assert {f"fastmac/{f}" for f in PACKAGE_FILES} <= installed_files
