"""The Python rows of docs/bad-input.md: bad input of every class to every
entry point raises a fastmac.Error subclass, TypeError or BufferError --
never a PyO3 PanicException (a Rust panic crossing into Python) -- and no
error text contains key or tag bytes."""

from __future__ import annotations

import pytest

import fastmac
import fastmac.badger
import fastmac.compat
import fastmac.ssh

KEY = bytes(range(0xA0, 0xB0))
NONCE = b"\x01\x02\x03\x04\x05\x06\x07\x08"

# UnicodeEncodeError: a name str with lone surrogates cannot become UTF-8;
# PyO3 raises it while converting the argument, before fastmac runs.
ALLOWED = (fastmac.Error, TypeError, BufferError, OverflowError, UnicodeEncodeError)


def _secret_spellings(secret: bytes) -> list[str]:
    return [secret.hex(), secret.hex().upper(), repr(secret)[2:-1], str(list(secret))[1:-1]]


def _check(call, *secrets: bytes) -> BaseException:
    with pytest.raises(BaseException) as info:
        call()
    err = info.value
    # pyo3_runtime.PanicException derives from BaseException, not Exception.
    assert isinstance(err, ALLOWED), f"{type(err).__name__}: {err}"
    text = f"{err} {err!r}"
    for secret in secrets:
        for spelling in _secret_spellings(secret):
            assert spelling not in text, text
    return err


def _digest_grow_digest(state, *nonce: bytes) -> None:
    state.digest(*nonce)
    state.update(b"more")
    state.digest(*nonce)


BAD_CALLS = {
    # wrong key lengths, empty and huge keys
    "key 0": lambda: fastmac.UMAC(b""),
    "key 15": lambda: fastmac.UMAC(KEY[:15]),
    "key huge": lambda: fastmac.UMAC(KEY * 100_000),
    "ssh key short": lambda: fastmac.ssh.MAC("umac-128@openssh.com", KEY[:8]),
    "compat key": lambda: fastmac.compat.UMAC(8, KEY[:3], NONCE),
    # wrong nonce lengths
    "nonce 0": lambda: fastmac.UMAC(KEY).mac(b"", b"m"),
    "nonce 17": lambda: fastmac.UMAC(KEY).mac(b"n" * 17, b"m"),
    "nonce huge": lambda: fastmac.UMAC(KEY).new(b"m").digest(b"n" * 1_000_000),
    # wrong tag lengths and wrong tags
    "tag empty": lambda: fastmac.UMAC(KEY).verify(NONCE, b"m", b""),
    "tag long": lambda: fastmac.UMAC(KEY, 16).verify(NONCE, b"m", KEY + b"x"),
    "tag wrong": lambda: fastmac.UMAC(KEY, 16).verify(NONCE, b"m", KEY),
    "ssh tag wrong": lambda: fastmac.ssh.MAC("hmac-sha2-256", KEY * 2).verify(1, b"p", KEY * 2),
    "ssh tag short": lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).verify(1, b"p", KEY[:3]),
    "digest_size": lambda: fastmac.UMAC(KEY, 7),
    "digest_size huge": lambda: fastmac.UMAC(KEY, 2**70),
    "digest_size negative": lambda: fastmac.UMAC(KEY, -8),
    # wrong algorithm names
    "ssh name": lambda: fastmac.ssh.MAC("umac-256@openssh.com", KEY),
    "ssh name empty": lambda: fastmac.ssh.MAC("", KEY),
    "ssh name NUL": lambda: fastmac.ssh.MAC("umac-64@openssh.com\0", KEY),
    "ssh name surrogate": lambda: fastmac.ssh.MAC("umac-64\udcff", KEY),
    # sequence numbers out of range or of the wrong type
    "seq -1": lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute(-1, b""),
    "seq 2**32": lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute(2**32, b""),
    "seq 2**100": lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute(2**100, b""),
    "seq float": lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute(1.5, b""),
    # non-buffers and non-contiguous buffers
    "data str": lambda: fastmac.UMAC(KEY).mac(NONCE, "text"),
    "data None": lambda: fastmac.UMAC(KEY).mac(NONCE, None),
    "key str": lambda: fastmac.UMAC("abcdefghijklmnop"),
    "key None": lambda: fastmac.UMAC(None),
    "nonce strided": lambda: fastmac.UMAC(KEY).mac(memoryview(bytearray(16))[::2], b"m"),
    "data strided": lambda: fastmac.UMAC(KEY).mac(NONCE, memoryview(bytearray(64))[::3]),
    "tag strided": lambda: fastmac.UMAC(KEY).verify(NONCE, b"m", memoryview(bytearray(16))[::2]),
    "packet strided": lambda: fastmac.ssh.MAC("umac-64@openssh.com", KEY).compute(1, memoryview(bytearray(9))[::2]),
    "update strided": lambda: fastmac.UMAC(KEY).new().update(memoryview(bytearray(9))[::2]),
    # the safe APIs: SequencedUMAC, ssh.OutboundMAC/InboundMAC, UMACState.verify
    "sequenced key": lambda: fastmac.SequencedUMAC(KEY[:15]),
    "sequenced digest_size": lambda: fastmac.SequencedUMAC(KEY, 2**70),
    "sequenced limit 0": lambda: fastmac.SequencedUMAC(KEY, limit=0),
    "sequenced limit huge": lambda: fastmac.SequencedUMAC(KEY, limit=2**100),
    "sequenced start past limit": lambda: fastmac.SequencedUMAC(KEY, start=10, limit=10),
    "sequenced start float": lambda: fastmac.SequencedUMAC(KEY, start=1.5),
    "sequenced exhausted": lambda: (lambda s: [s.tag(b"m") for _ in range(2)])(fastmac.SequencedUMAC(KEY, limit=1)),
    "sequenced data strided": lambda: fastmac.SequencedUMAC(KEY).tag(memoryview(bytearray(9))[::2]),
    "nonce_bytes -1": lambda: fastmac.SequencedUMAC.nonce_bytes(-1),
    "state verify tag short": lambda: fastmac.UMAC(KEY).new(b"m").verify(NONCE, KEY[:3]),
    "state verify tag wrong": lambda: fastmac.UMAC(KEY, 16).new(b"m").verify(NONCE, KEY),
    "outbound name": lambda: fastmac.ssh.OutboundMAC("umac-32@openssh.com", KEY),
    "outbound seq 2**32": lambda: fastmac.ssh.OutboundMAC("umac-64@openssh.com", KEY, 2**32),
    "outbound rekey key": lambda: fastmac.ssh.OutboundMAC("umac-64@openssh.com", KEY).rekey("hmac-sha1", KEY),
    "inbound tag wrong": lambda: fastmac.ssh.InboundMAC("hmac-sha2-256", KEY * 2).verify(b"p", KEY * 2),
    "inbound seq -1": lambda: fastmac.ssh.InboundMAC("umac-64@openssh.com", KEY, -1),
    # Badger
    "badger key": lambda: fastmac.badger.Badger(KEY[:8]),
    "badger digest_size": lambda: fastmac.badger.Badger(KEY, 24),
    "badger levels 0": lambda: fastmac.badger.Badger(KEY, levels=0),
    "badger levels huge": lambda: fastmac.badger.BadgerSender(KEY, levels=2**80),
    "badger zero nonce": lambda: fastmac.badger.Badger(KEY).mac(bytes(8), b"m"),
    "badger nonce 9": lambda: fastmac.badger.Badger(KEY).mac(b"n" * 9, b"m"),
    "badger tag wrong": lambda: fastmac.badger.Badger(KEY, 16).verify(NONCE, b"m", KEY),
    "badger trees 0": lambda: fastmac.badger.Badger(KEY).verify_prefix(NONCE, b"m", KEY[:8], 0),
    "badger trees huge": lambda: fastmac.badger.Badger(KEY).verify_prefix(NONCE, b"m", KEY[:8], 2**64),
    "badger too long": lambda: fastmac.badger.Badger(KEY, levels=1).mac(NONCE, bytes(17)),
    "badger receiver tag": lambda: fastmac.badger.BadgerReceiver(KEY, 16).verify(b"m", KEY),
    "badger streamed tag short": lambda: fastmac.badger.BadgerReceiver(KEY).verify_streamed(KEY[:3]),
    "badger state nonce": lambda: fastmac.badger.Badger(KEY).new(b"m").digest(b""),
    "umac state nonce reused": lambda: _digest_grow_digest(fastmac.UMAC(KEY).new(b"m"), NONCE),
    "badger state nonce reused": lambda: _digest_grow_digest(fastmac.badger.Badger(KEY).new(b"m"), NONCE),
    "compat digest after update": lambda: _digest_grow_digest(fastmac.compat.UMAC(8, KEY, NONCE)),
    "badger bound trees": lambda: fastmac.badger.forgery_bound_log2(0, 10),
}


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_bad_input_raises_a_typed_error_without_secrets(case):
    _check(BAD_CALLS[case], KEY, KEY[:8], KEY * 2)


def test_error_classes_per_row():
    # The classes docs/bad-input.md names.
    assert isinstance(_check(BAD_CALLS["key 15"]), fastmac.KeyLengthError)
    assert isinstance(_check(BAD_CALLS["nonce 17"]), fastmac.NonceLengthError)
    assert isinstance(_check(BAD_CALLS["tag long"]), fastmac.TagLengthError)
    assert isinstance(_check(BAD_CALLS["tag wrong"]), fastmac.InvalidTag)
    assert isinstance(_check(BAD_CALLS["ssh name"]), fastmac.UnknownAlgorithmError)
    assert isinstance(_check(BAD_CALLS["seq 2**32"]), fastmac.SequenceNumberError)
    assert isinstance(_check(BAD_CALLS["data strided"]), BufferError)
    assert isinstance(_check(BAD_CALLS["data str"]), TypeError)
    assert isinstance(_check(BAD_CALLS["seq 2**100"]), (fastmac.SequenceNumberError, OverflowError))
    assert isinstance(_check(BAD_CALLS["ssh name surrogate"]), UnicodeEncodeError)
    for case in ("umac state nonce reused", "badger state nonce reused", "compat digest after update"):
        assert isinstance(_check(BAD_CALLS[case]), fastmac.NonceReuseError), case


def test_empty_inputs_are_valid():
    mac = fastmac.UMAC(KEY)
    tag = mac.mac(NONCE, b"")
    mac.verify(NONCE, b"", tag)
    ssh = fastmac.ssh.MAC("umac-64@openssh.com", KEY)
    ssh.verify(0, b"", ssh.compute(0, b""))
