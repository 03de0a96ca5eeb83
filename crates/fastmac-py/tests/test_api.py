"""The Python API: results, streaming, buffers, attributes and errors."""

from __future__ import annotations

import array
import hashlib
import hmac
import os
import random
import sys
import threading
import time

import numpy as np
import pytest

import fastmac
import fastmac.compat
import fastmac.ssh

KEY = b"abcdefghijklmnop"
NONCE = b"bcdefghi"
SIZES = (4, 8, 12, 16)


def buffers(data: bytes):
    """The same bytes as every kind of buffer the API accepts."""
    return [
        data,
        bytearray(data),
        memoryview(data),
        memoryview(bytearray(data)),
        np.frombuffer(data, dtype=np.uint8),
        array.array("B", data),
    ]


@pytest.mark.parametrize("size", SIZES)
def test_rfc4418_vectors_through_every_api(rfc4418, size):
    key, nonce, rows = rfc4418
    assert (key, nonce) == (KEY, NONCE)
    mac = fastmac.UMAC(key, size)
    for message, tags in rows:
        tag = tags[size]
        assert mac.mac(nonce, message) == tag
        mac.verify(nonce, message, tag)
        state = mac.new()
        for start in range(0, len(message), 1 << 20):
            assert state.update(message[start : start + (1 << 20)]) is None
        assert state.digest(nonce) == tag
        assert state.hexdigest(nonce) == tag.hex()
        compat = fastmac.compat.UMAC(size, key, nonce)
        compat.update(message)
        assert compat.digest() == tag


def test_any_buffer_is_accepted():
    data = os.urandom(5000)
    mac = fastmac.UMAC(KEY, 16)
    expected = mac.mac(NONCE, data)
    ssh = fastmac.ssh.MAC("umac-128@openssh.com", KEY)
    ssh_expected = ssh.compute(9, data)
    for buf in buffers(data):
        assert mac.mac(NONCE, buf) == expected
        mac.verify(NONCE, buf, expected)
        assert ssh.compute(9, buf) == ssh_expected
        ssh.verify(9, buf, ssh_expected)
        state = mac.new()
        state.update(buf)
        assert state.digest(NONCE) == expected
    for key in buffers(KEY):
        assert fastmac.UMAC(key, 16).mac(NONCE, data) == expected
    for nonce in buffers(NONCE):
        assert mac.mac(nonce, data) == expected
    for tag in buffers(expected):
        mac.verify(NONCE, data, tag)
    # Multi-byte items: the raw bytes of a contiguous array.
    wide = np.frombuffer(data, dtype=np.uint32)
    assert mac.mac(NONCE, wide) == expected


def test_non_contiguous_and_non_buffer_inputs_are_rejected():
    mac = fastmac.UMAC(KEY)
    strided = memoryview(bytearray(100))[::2]
    with pytest.raises(BufferError):
        mac.mac(NONCE, strided)
    with pytest.raises(TypeError):
        mac.mac(NONCE, "text")
    with pytest.raises(TypeError):
        mac.mac(NONCE, 12)
    with pytest.raises(TypeError):
        mac.new().update(None)
    with pytest.raises(TypeError):
        fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute("1", b"")


def test_buffers_are_released():
    # The PyPI umac package never releases its buffers: a bytearray it saw
    # can no longer be resized. fastmac releases every one.
    mac = fastmac.UMAC(KEY)
    ssh = fastmac.ssh.MAC("umac-64@openssh.com", KEY)
    data = bytearray(b"x" * 4096)
    mac.mac(NONCE, data)
    mac.verify(NONCE, data, mac.mac(NONCE, data))
    state = mac.new()
    state.update(data)
    ssh.compute(1, data)
    with pytest.raises(fastmac.InvalidTag):
        ssh.verify(1, data, bytearray(8))
    fastmac.compat.UMAC(8, KEY, NONCE).update(data)
    data.extend(b"more")  # raises BufferError if any export were still held
    del data[:100]


def test_streaming_state_is_hashlib_like():
    mac = fastmac.UMAC(KEY, 8)
    message = os.urandom(10_000)
    state = mac.new(message[:10])
    assert state.digest_size == 8 and state.name == "umac-64"
    state.update(message[10:5000])
    snapshot = state.copy()
    state.update(message[5000:])
    assert state.digest(NONCE) == mac.mac(NONCE, message)
    # digest() does not end the state; copy() is independent.
    assert state.digest(NONCE) == mac.mac(NONCE, message)
    assert snapshot.digest(NONCE) == mac.mac(NONCE, message[:5000])
    snapshot.update(message[5000:])
    assert snapshot.digest(b"other") == mac.mac(b"other", message)
    # new() starts empty, whatever the keyed object streamed before.
    assert mac.new().digest(NONCE) == mac.mac(NONCE, b"")
    assert "umac-64" in repr(state)


def test_attributes():
    for size, name in zip(SIZES, ("umac-32", "umac-64", "umac-96", "umac-128")):
        mac = fastmac.UMAC(KEY, digest_size=size)
        assert (mac.digest_size, mac.name, mac.key_size) == (size, name, 16)
        assert len(mac.mac(NONCE, b"abc")) == size
        assert repr(mac) == f"<fastmac.UMAC {name}>"
    assert fastmac.UMAC(KEY).digest_size == 8
    ssh = fastmac.ssh.MAC("hmac-sha2-256-etm@openssh.com", bytes(32))
    assert (ssh.name, ssh.key_size, ssh.digest_size, ssh.etm) == ("hmac-sha2-256-etm@openssh.com", 32, 32, True)
    assert repr(ssh) == "<fastmac.ssh.MAC hmac-sha2-256-etm@openssh.com>"
    assert fastmac.__doc__ and fastmac.UMAC.__doc__ and fastmac.UMAC.mac.__doc__
    assert fastmac.ssh.MAC.compute.__doc__ and fastmac.UMACState.update.__doc__


def test_typed_errors_with_clear_messages():
    errors = [
        (lambda: fastmac.UMAC(b"k" * 15), fastmac.KeyLengthError, "wrong key length: expected 16 bytes, got 15"),
        (lambda: fastmac.UMAC(KEY, 10), fastmac.TagLengthError, "digest_size must be 4, 8, 12 or 16, got 10"),
        (lambda: fastmac.UMAC(KEY).mac(b"", b""), fastmac.NonceLengthError, "expected 1 to 16 bytes, got 0"),
        (lambda: fastmac.UMAC(KEY).mac(b"n" * 17, b""), fastmac.NonceLengthError, "got 17"),
        (lambda: fastmac.UMAC(KEY).new().digest(b""), fastmac.NonceLengthError, "got 0"),
        (lambda: fastmac.UMAC(KEY).verify(NONCE, b"", b"1234"), fastmac.TagLengthError, "expected 8 bytes, got 4"),
        (lambda: fastmac.UMAC(KEY).verify(NONCE, b"", bytes(8)), fastmac.InvalidTag, "invalid tag"),
        (lambda: fastmac.ssh.MAC("umac-32@openssh.com", KEY), fastmac.UnknownAlgorithmError, "unknown algorithm \"umac-32@openssh.com\""),
        (lambda: fastmac.ssh.MAC("hmac-sha1", KEY), fastmac.KeyLengthError, "expected 20 bytes, got 16"),
        (lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute(-1, b""), fastmac.SequenceNumberError, "0 .. 2**32 - 1"),
        (lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute(2**32, b""), fastmac.SequenceNumberError, "0 .. 2**32 - 1"),
        (lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).verify(0, b"", b"short"), fastmac.TagLengthError, "expected 8 bytes, got 5"),
        (lambda: fastmac.compat.UMAC(5, KEY, NONCE), fastmac.TagLengthError, "digest_size"),
        (lambda: fastmac.compat.UMAC(8, KEY[:4], NONCE), fastmac.KeyLengthError, "got 4"),
        (lambda: fastmac.compat.UMAC(8, KEY, b""), fastmac.NonceLengthError, "got 0"),
    ]
    for call, kind, message in errors:
        with pytest.raises(kind) as info:
            call()
        assert isinstance(info.value, ValueError) and isinstance(info.value, fastmac.Error)
        assert message in str(info.value), str(info.value)
        # No key or tag bytes in the text.
        assert KEY.decode() not in str(info.value) and KEY.hex() not in str(info.value)
    assert issubclass(fastmac.InvalidTag, ValueError)


def test_verify_rejects_every_flipped_bit():
    mac = fastmac.UMAC(KEY, 16)
    tag = mac.mac(NONCE, b"message")
    for i in range(len(tag) * 8):
        bad = bytearray(tag)
        bad[i // 8] ^= 1 << (i % 8)
        with pytest.raises(fastmac.InvalidTag):
            mac.verify(NONCE, b"message", bad)
    mac.verify(NONCE, b"message", tag)


def test_ssh_names_and_lengths():
    expected = {
        "umac-64@openssh.com": (16, 8), "umac-128@openssh.com": (16, 16),
        "umac-64-etm@openssh.com": (16, 8), "umac-128-etm@openssh.com": (16, 16),
        "hmac-sha2-256": (32, 32), "hmac-sha2-512": (64, 64), "hmac-sha1": (20, 20), "hmac-sha1-96": (20, 12),
        "hmac-md5": (16, 16), "hmac-md5-96": (16, 12), "hmac-ripemd160": (20, 20),
        "hmac-ripemd160@openssh.com": (20, 20), "hmac-sha2-256-etm@openssh.com": (32, 32),
        "hmac-sha2-512-etm@openssh.com": (64, 64), "hmac-sha1-etm@openssh.com": (20, 20),
        "hmac-sha1-96-etm@openssh.com": (20, 12), "hmac-md5-etm@openssh.com": (16, 16),
        "hmac-md5-96-etm@openssh.com": (16, 12), "hmac-ripemd160-etm@openssh.com": (20, 20),
    }
    listed = {name: (key, tag) for name, key, tag, _etm in fastmac.ssh.algorithms()}
    assert listed == expected
    assert sorted(fastmac.ssh.names()) == sorted(expected)
    for name, _key, _tag, etm in fastmac.ssh.algorithms():
        assert etm == ("-etm@" in name)


HASHES = {"sha2-256": "sha256", "sha2-512": "sha512", "sha1": "sha1", "md5": "md5", "ripemd160": "ripemd160"}


def hashlib_name(ssh_name: str) -> str:
    base = ssh_name.removeprefix("hmac-").split("-etm@")[0].removesuffix("@openssh.com").removesuffix("-96")
    return HASHES[base]


def test_ssh_hmacs_equal_python_hmac_over_seq_and_packet():
    """Independent oracle: CPython's hmac (OpenSSL), as RFC 4253 section 6.4
    defines the SSH MAC: HMAC(key, uint32 seq || packet), truncated."""
    rng = random.Random(4253)
    names = [n for n in fastmac.ssh.names() if n.startswith("hmac-")]
    try:
        hashlib.new("ripemd160")
    except ValueError:  # OpenSSL without its legacy provider
        names = [n for n in names if "ripemd" not in n]
    assert len(names) >= 13
    for name in names:
        mac_info = next(a for a in fastmac.ssh.algorithms() if a[0] == name)
        key = rng.randbytes(mac_info[1])
        mac = fastmac.ssh.MAC(name, key)
        for _ in range(50):
            seq = rng.getrandbits(32)
            packet = rng.randbytes(rng.randrange(0, 5000))
            expected = hmac.new(key, seq.to_bytes(4, "big") + packet, hashlib_name(name)).digest()[: mac_info[2]]
            assert mac.compute(seq, packet) == expected, name
            mac.verify(seq, packet, expected)


def test_ssh_umacs_use_the_sequence_number_as_nonce():
    rng = random.Random(4418)
    for name, size in [("umac-64@openssh.com", 8), ("umac-128@openssh.com", 16),
                       ("umac-64-etm@openssh.com", 8), ("umac-128-etm@openssh.com", 16)]:
        key = rng.randbytes(16)
        ssh = fastmac.ssh.MAC(name, key)
        umac = fastmac.UMAC(key, size)
        for seq in [0, 1, 2, 3, 255, 256, 2**32 - 1] + [rng.getrandbits(32) for _ in range(100)]:
            packet = rng.randbytes(rng.randrange(0, 3000))
            assert ssh.compute(seq, packet) == umac.mac(seq.to_bytes(8, "big"), packet)


def test_thread_safety_of_shared_objects():
    mac = fastmac.UMAC(KEY, 12)
    ssh = fastmac.ssh.MAC("umac-64-etm@openssh.com", KEY)
    messages = [os.urandom(n) for n in (10, 3000, 70_000, 1 << 20)]
    expected = [(mac.mac(NONCE, m), ssh.compute(i, m)) for i, m in enumerate(messages)]
    failures = []

    def worker() -> None:
        for _ in range(20):
            for i, m in enumerate(messages):
                if (mac.mac(NONCE, m), ssh.compute(i, m)) != expected[i]:
                    failures.append(i)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a worker was still running after 60 s"
    assert failures == []


def other_thread_ran_during(calls) -> list[int]:
    """For each call, how many times a spinning Python thread recorded the
    time while the call ran. With a switch interval far longer than a call,
    the spinner gets the GIL during a call only if the call releases it."""
    stamps: list[float] = []
    stop = threading.Event()
    spun = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            for _ in range(1000):
                pass
            stamps.append(time.perf_counter())
            spun.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    thread = threading.Thread(target=spin)
    thread.start()
    counts = []
    try:
        for call in calls:
            # The spinner has run (it holds or waits for the GIL from now
            # on); this thread then waits for the GIL, at most a switch
            # interval.
            spun.clear()
            assert spun.wait(60), "the spinner thread did not run within 60 s"
            stamps.clear()
            start = time.perf_counter()
            call()
            end = time.perf_counter()
            counts.append(sum(start < stamp < end for stamp in list(stamps)))
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    return counts


def test_the_gil_is_released_over_large_bytes_only():
    """While a large ``bytes`` message is MACed another Python thread runs;
    while a bytearray or a numpy array is, none does: they are read with
    the GIL held, so that no Python thread can write them meanwhile
    (test_buffer_race.py checks that consequence)."""
    # HMAC-SHA-256 (the same path as every MAC, src/buffer.rs): slow enough
    # that the spinner, woken when the GIL is released, runs during the call
    # even on a busy machine, and still far shorter than the switch interval.
    size = 16 << 20
    mac = fastmac.ssh.MAC("hmac-sha2-256", bytes(32))
    immutable = bytes(size)
    mutable = [bytearray(size), np.zeros(size, dtype=np.uint8)]
    tag = mac.compute(1, immutable)
    released = other_thread_ran_during([lambda: mac.compute(1, immutable)] * 2)
    held = other_thread_ran_during([lambda buf=buf: mac.verify(1, buf, tag) for buf in mutable])
    assert min(released) > 0, released
    assert held == [0, 0], held


def test_ssh_known_answers_from_independent_implementations():
    """tests/vectors/ssh_macs.txt (CPython hmac and GNU Nettle, not fastmac)."""
    from conftest import VECTORS

    rows = 0
    for line in (VECTORS / "ssh_macs.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, seq, key, packet, tag = line.split()
        packet = b"" if packet == "-" else bytes.fromhex(packet)
        mac = fastmac.ssh.MAC(name, bytes.fromhex(key))
        assert mac.compute(int(seq), packet).hex() == tag, (name, seq)
        mac.verify(int(seq), packet, bytes.fromhex(tag))
        rows += 1
    assert rows == 4 * len(fastmac.ssh.algorithms())
