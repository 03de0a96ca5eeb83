"""Independent UMAC implementations for differential tests: GNU Nettle
(libnettle, through ctypes), the Rust library (through the `fastmac` CLI
binary) and the PyPI package `umac` 2.0."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


class Nettle:
    """Nettle's UMAC-32/64/96/128 (nettle/umac.h). Contexts are
    caller-allocated structs of at most ~2.8 KiB on x86_64: a 4 KiB buffer
    (malloc'ed, so 16-byte aligned) holds any of them."""

    def __init__(self) -> None:
        path = ctypes.util.find_library("nettle") or "libnettle.so.8"
        self.lib = ctypes.CDLL(path)
        for bits in (32, 64, 96, 128):
            for op, args in (("set_key", [ctypes.c_void_p, ctypes.c_char_p]),
                             ("set_nonce", [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]),
                             ("update", [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]),
                             ("digest", [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p])):
                fn = getattr(self.lib, f"nettle_umac{bits}_{op}")
                fn.argtypes, fn.restype = args, None

    def mac(self, size: int, key: bytes, nonce: bytes, message: bytes) -> bytes:
        bits = size * 8
        ctx = ctypes.create_string_buffer(4096)
        out = ctypes.create_string_buffer(size)
        getattr(self.lib, f"nettle_umac{bits}_set_key")(ctx, key)
        getattr(self.lib, f"nettle_umac{bits}_set_nonce")(ctx, len(nonce), nonce)
        getattr(self.lib, f"nettle_umac{bits}_update")(ctx, len(message), message)
        getattr(self.lib, f"nettle_umac{bits}_digest")(ctx, size, out)
        return out.raw


def cli_path() -> Path:
    path = Path(os.environ.get("FASTMAC_CLI", REPO / "target" / "release" / "fastmac"))
    if not path.exists():
        raise FileNotFoundError(f"{path}: build it with `cargo build --release -p fastmac-cli` (make test does)")
    return path


def rust_cli_tag(alg: str, key: bytes, message: bytes, nonce: bytes | None = None, seq: int | None = None) -> bytes:
    args = [str(cli_path()), "tag", "--alg", alg, "--key", key.hex()]
    if nonce is not None:
        args += ["--nonce", nonce.hex()]
    if seq is not None:
        args += ["--seq", str(seq)]
    done = subprocess.run(args, input=message, capture_output=True, timeout=60, check=True)
    return bytes.fromhex(done.stdout.decode().strip())


def pypi_umac(size: int, key: bytes, nonce: bytes, message: bytes, chunk: int | None = None) -> bytes:
    """The PyPI `umac` 2.0 package. Its update() returns a borrowed None
    (slietar/umac src/python.zig): on CPython < 3.12 that drops None's
    reference count by one per call, so we give the reference back."""
    import umac

    mac = umac.UMAC(size, key, nonce)
    pieces = [message] if chunk is None else [message[i : i + chunk] for i in range(0, len(message), chunk)] or [b""]
    for piece in pieces:
        mac.update(piece)
        if sys.version_info < (3, 12):
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(None))
    return mac.digest()
