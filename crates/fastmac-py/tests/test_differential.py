"""The Python package equals three independent sources on random cases:
GNU Nettle (ctypes), the Rust library (through its CLI) and, for the
compatibility constructor, the PyPI package `umac` 2.0 below 16 MiB."""

from __future__ import annotations

import random

import pytest

import fastmac
import fastmac.compat
import fastmac.ssh
from oracles import Nettle, pypi_umac, rust_cli_tag

SIZES = (4, 8, 12, 16)
NAMES = {4: "umac-32", 8: "umac-64", 12: "umac-96", 16: "umac-128"}


@pytest.fixture(scope="module")
def nettle():
    return Nettle()


def random_case(rng: random.Random, max_len: int):
    key = rng.randbytes(16)
    nonce = rng.randbytes(rng.randint(1, 16))
    # Lengths around NH's 1 KiB blocks and L2's boundaries matter most.
    length = rng.choice([rng.randrange(0, 64), rng.randrange(0, 3000), rng.randrange(0, max_len)])
    return key, nonce, rng.randbytes(length)


@pytest.mark.parametrize("size", SIZES)
def test_python_equals_nettle_on_random_cases(nettle, size):
    rng = random.Random(1000 + size)
    for _ in range(400):
        key, nonce, message = random_case(rng, 200_000)
        expected = nettle.mac(size, key, nonce, message)
        mac = fastmac.UMAC(key, size)
        assert mac.mac(nonce, message) == expected, (size, len(message), len(nonce))
        state = mac.new()
        cut = rng.randrange(0, len(message) + 1)
        state.update(message[:cut])
        state.update(memoryview(message)[cut:])
        assert state.digest(nonce) == expected
        compat = fastmac.compat.UMAC(size, key, nonce)
        compat.update(message)
        assert compat.digest() == expected


def test_python_equals_nettle_beyond_16_mib(nettle):
    """Past 2^24 bytes UHASH's L2 switches to POLY128 (RFC 4418 5.3)."""
    rng = random.Random(24)
    message = rng.randbytes((16 << 20) + 1500)
    for size in SIZES:
        key = rng.randbytes(16)
        assert fastmac.UMAC(key, size).mac(b"nonce", message) == nettle.mac(size, key, b"nonce", message)


@pytest.mark.parametrize("size", SIZES)
def test_python_equals_the_rust_library(size):
    rng = random.Random(2000 + size)
    for _ in range(25):
        key, nonce, message = random_case(rng, 300_000)
        assert fastmac.UMAC(key, size).mac(nonce, message) == rust_cli_tag(NAMES[size], key, message, nonce=nonce)


def test_ssh_macs_equal_the_rust_library():
    rng = random.Random(3000)
    for name, key_size, _tag_size, _etm in fastmac.ssh.algorithms():
        key = rng.randbytes(key_size)
        for _ in range(3):
            seq = rng.getrandbits(32)
            packet = rng.randbytes(rng.randrange(0, 40_000))
            assert fastmac.ssh.MAC(name, key).compute(seq, packet) == rust_cli_tag(name, key, packet, seq=seq), name


@pytest.mark.parametrize("size", SIZES)
def test_compat_equals_pypi_umac_below_16_mib(size):
    rng = random.Random(4000 + size)
    for _ in range(150):
        key, nonce, message = random_case(rng, 100_000)
        chunk = rng.choice([None, 1, 100, 1024, 4096])
        if chunk == 1:
            message = message[:300]
        ours = fastmac.compat.UMAC(size, key, nonce)
        pieces = [message] if chunk is None else [message[i : i + chunk] for i in range(0, len(message), chunk)]
        for piece in pieces:
            assert ours.update(piece) is None
        assert ours.digest() == pypi_umac(size, key, nonce, message, chunk), (size, len(message), chunk)


def test_compat_equals_pypi_umac_just_below_16_mib():
    rng = random.Random(5000)
    message = rng.randbytes((16 << 20) - 1)
    for size in SIZES:
        key, nonce = rng.randbytes(16), rng.randbytes(8)
        ours = fastmac.compat.UMAC(size, key, nonce)
        ours.update(message)
        assert ours.digest() == pypi_umac(size, key, nonce, message)
