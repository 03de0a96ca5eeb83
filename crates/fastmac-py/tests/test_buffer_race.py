"""A buffer that another thread writes while fastmac reads it.

fastmac releases the GIL for long messages only over ``bytes``, which
nothing can write; any other buffer (``bytearray``, a writable
``memoryview``) is read with the GIL held, so no Python thread can write it
meanwhile (a Rust ``&[u8]`` over memory another thread writes is undefined
behaviour). Observable consequence, checked here for every call that hashes
a message: while a second thread keeps rewriting the buffer between two
contents A and B, each tag is the tag of A or of B, never of a mix. Run by
``make test-python`` against the release wheel and against a debug build of
the extension (debug assertions and overflow checks on)."""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

import fastmac
import fastmac.badger
import fastmac.compat
import fastmac.ssh
from conftest import REPO

KEY = bytes(range(16))
NONCE = (7).to_bytes(8, "big")
# Above GIL_MINSIZE by far: a call long enough for the writer to run many
# times during it, were the GIL released.
SIZE = 1 << 18
# The calls each test makes at least, and the bounds on how long it goes on
# waiting for the writer to write between two of them: on a loaded machine
# the writer may not be scheduled for a while, so the calls go on until it
# has written during them (an event), never past these bounds.
CALLS = 60
MAX_CALLS = 20_000
MAX_SECONDS = 60.0
A = os.urandom(SIZE)
B = os.urandom(SIZE)


class Writer:
    """A thread that writes A, then B, then A ... into a buffer (each write
    one slice assignment, atomic under the GIL) until stopped, counting its
    writes; `started` is set once it has written."""

    def __init__(self, view: bytearray | memoryview) -> None:
        self.view = view
        self.writes = 0
        self.started = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        while not self.stop.is_set():
            self.view[:] = B
            self.view[:] = A
            self.writes += 2
            self.started.set()


@contextmanager
def rewritten(view: bytearray | memoryview) -> Iterator[Writer]:
    """The block runs while a Writer rewrites ``view``, from its first
    write on (bounded wait); on exit the buffer holds A again."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # hand the GIL over often
    writer = Writer(view)
    writer.thread.start()
    try:
        assert writer.started.wait(MAX_SECONDS), f"the writer did not write within {MAX_SECONDS} s"
        yield writer
    finally:
        writer.stop.set()
        writer.thread.join()
        sys.setswitchinterval(interval)
        view[:] = A


def call_while_rewritten(writer: Writer, call: Callable[[], object]) -> list[object]:
    """What `call` returns, called at least CALLS times and on until the
    writer has written between the first call's start and the last one's
    end (at most MAX_CALLS calls and MAX_SECONDS)."""
    before = writer.writes
    deadline = time.monotonic() + MAX_SECONDS
    results = []
    while len(results) < CALLS or writer.writes == before:
        if len(results) >= MAX_CALLS or time.monotonic() > deadline:
            break
        results.append(call())
    assert writer.writes > before, (
        f"the writer never wrote during {len(results)} calls ({MAX_SECONDS} s at most)"
    )
    return results


def mac_calls() -> dict[str, tuple[Callable[[object], bytes], Callable[[bytes], bytes]]]:
    """name -> (tag the buffer, tag given bytes): each call that hashes a
    message and returns something that depends on it."""
    umac = fastmac.UMAC(KEY, 16)
    badger = fastmac.badger.Badger(KEY, 20)
    ssh = fastmac.ssh.MAC("umac-128-etm@openssh.com", KEY)
    hmac = fastmac.ssh.MAC("hmac-sha2-256", bytes(32))
    sequenced = fastmac.SequencedUMAC(KEY, 16)
    outbound = fastmac.ssh.OutboundMAC("umac-64@openssh.com", KEY)
    sender = fastmac.badger.BadgerSender(KEY, 8)
    receiver = fastmac.badger.BadgerReceiver(KEY, 8)

    def streamed(state_of: Callable[[], object], nonce: bytes) -> Callable[[object], bytes]:
        def tag(buf: object) -> bytes:
            state = state_of()
            state.update(buf)  # type: ignore[attr-defined]
            return state.digest(nonce)  # type: ignore[attr-defined,no-any-return]

        return tag

    def compat(buf: object) -> bytes:
        mac = fastmac.compat.UMAC(8, KEY, NONCE)
        mac.update(buf)
        return mac.digest()

    def sequenced_tag(buf: object) -> bytes:
        nonce, tag = sequenced.tag(buf)
        # The tag names the message it belongs to: A's or B's under its nonce.
        for message in (A, B):
            if umac.mac(fastmac.SequencedUMAC.nonce_bytes(nonce), message) == tag:
                return message[:16]
        return b"neither"

    def outbound_tag(buf: object) -> bytes:
        seq, tag = outbound.compute(buf)
        ssh64 = fastmac.ssh.MAC("umac-64@openssh.com", KEY)
        for message in (A, B):
            if ssh64.compute(seq, message) == tag:
                return message[:16]
        return b"neither"

    def sender_tag(buf: object) -> bytes:
        tag = sender.tag(buf)
        for message in (A, B):
            try:
                receiver.verify(message, tag)  # moves on only when it verifies
            except fastmac.InvalidTag:
                continue
            return message[:16]
        return b"neither"

    def sender_streamed(buf: object) -> bytes:
        sender.update(buf)
        tag = sender.finalize()
        for message in (A, B):
            try:
                receiver.verify(message, tag)
            except fastmac.InvalidTag:
                continue
            return message[:16]
        return b"neither"

    return {
        "UMAC.mac": (lambda buf: umac.mac(NONCE, buf), lambda m: umac.mac(NONCE, m)),
        "UMACState.update": (streamed(umac.new, NONCE), lambda m: umac.mac(NONCE, m)),
        "compat.UMAC.update": (compat, lambda m: fastmac.UMAC(KEY, 8).mac(NONCE, m)),
        "SequencedUMAC.tag": (sequenced_tag, lambda m: m[:16]),
        "ssh.MAC.compute (UMAC)": (lambda buf: ssh.compute(3, buf), lambda m: ssh.compute(3, m)),
        "ssh.MAC.compute (HMAC)": (lambda buf: hmac.compute(3, buf), lambda m: hmac.compute(3, m)),
        "ssh.OutboundMAC.compute": (outbound_tag, lambda m: m[:16]),
        "badger.Badger.mac": (lambda buf: badger.mac(NONCE, buf), lambda m: badger.mac(NONCE, m)),
        "badger.BadgerState.update": (streamed(badger.new, NONCE), lambda m: badger.mac(NONCE, m)),
        "badger.BadgerSender.tag": (sender_tag, lambda m: m[:16]),
        "badger.BadgerSender.update": (sender_streamed, lambda m: m[:16]),
    }


CALL_NAMES = list(mac_calls())


@pytest.mark.parametrize("exporter", ["bytearray", "memoryview"])
@pytest.mark.parametrize("name", CALL_NAMES)
def test_a_buffer_rewritten_during_the_call_gives_the_tag_of_one_content(name, exporter):
    tag_of, tag_of_bytes = mac_calls()[name]
    allowed = {tag_of_bytes(A), tag_of_bytes(B)}
    assert len(allowed) == 2
    buf = bytearray(A)
    view = buf if exporter == "bytearray" else memoryview(buf)
    with rewritten(view) as writer:
        tags = call_while_rewritten(writer, lambda: tag_of(view))
    torn = [tag for tag in tags if tag not in allowed]
    assert not torn, f"{len(torn)} of {len(tags)} tags are of neither content (the buffer was read while written)"


def test_verify_calls_under_a_rewritten_buffer_give_a_verdict_on_one_content():
    """The verify calls (their verdict does not show which content they
    read): against a buffer that flips between A and B, a tag of A either
    verifies or raises InvalidTag, nothing else; once the writer stops, on
    A, it verifies."""
    umac = fastmac.UMAC(KEY, 8)
    ssh = fastmac.ssh.MAC("umac-64@openssh.com", KEY)
    badger = fastmac.badger.Badger(KEY, 8)
    checks: list[Callable[[object], None]] = [
        lambda buf: umac.verify(NONCE, buf, umac.mac(NONCE, A)),
        lambda buf: ssh.verify(5, buf, ssh.compute(5, A)),
        lambda buf: badger.verify(NONCE, buf, badger.mac(NONCE, A)),
    ]
    buf = bytearray(A)
    verdicts = {"valid": 0, "invalid": 0}

    def verdict(check: Callable[[object], None]) -> str:
        try:
            check(buf)
        except fastmac.InvalidTag:
            return "invalid"
        return "valid"

    with rewritten(buf) as writer:
        for check in checks:
            for outcome in call_while_rewritten(writer, lambda check=check: verdict(check)):
                verdicts[outcome] += 1
    for check in checks:
        check(buf)  # A again, written by the context's exit
    assert sum(verdicts.values()) >= len(checks) * CALLS


def test_only_the_buffer_module_releases_the_gil():
    """The argument above holds because src/buffer.rs decides every GIL
    release, over ``bytes`` or copies only: no other module may release it."""
    sources = sorted((REPO / "crates" / "fastmac-py" / "src").glob("*.rs"))
    assert len(sources) >= 8
    releasing = [p.name for p in sources if re.search(r"\.detach\(|allow_threads", p.read_text())]
    assert releasing == ["buffer.rs"], releasing
