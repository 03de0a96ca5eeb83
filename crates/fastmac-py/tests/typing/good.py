"""Correct use of every public API: ``mypy --strict`` must accept it
(tests/test_typing.py). Never run; only type-checked."""

from __future__ import annotations

import array
import mmap

import fastmac
import fastmac.asyncssh
import fastmac.badger
import fastmac.compat
import fastmac.paramiko
import fastmac.ssh

key = bytes(16)
nonce = b"12345678"

umac: fastmac.UMAC = fastmac.UMAC(key, 16)
tag: bytes = umac.mac(nonce, memoryview(b"data"))
umac.verify(bytearray(nonce), array.array("B", b"data"), tag)
state: fastmac.UMACState = umac.new(b"first part")
state.update(bytearray(b"second part"))
state.verify(nonce, state.digest(nonce))
hex_tag: str = state.hexdigest(nonce)

sender = fastmac.SequencedUMAC(key, 8, limit=2**32)
counter: int
counter, tag = sender.tag(memoryview(b"message"))
sender.update(b"streamed")
counter, tag = sender.finalize()
fastmac.UMAC(key, 8).verify(fastmac.SequencedUMAC.nonce_bytes(counter), b"streamed", tag)
left: int = sender.remaining

compat = fastmac.compat.UMAC(8, key, nonce)
compat.update(memoryview(b"any buffer"))
compat.update(mmap.mmap(-1, 16))
digest: bytes = compat.digest()

out = fastmac.ssh.OutboundMAC("umac-64-etm@openssh.com", key)
inb = fastmac.ssh.InboundMAC("umac-64-etm@openssh.com", key, next_seq=0)
seq, tag = out.compute(b"\x00\x00\x00\x05hello")
checked: int = inb.verify(b"\x00\x00\x00\x05hello", tag)
out.rekey("umac-128-etm@openssh.com", key)
rekey_now: bool = inb.needs_rekey
limit: int = fastmac.ssh.REKEY_AFTER_PACKETS
tag = fastmac.ssh.MAC("hmac-sha2-256", bytes(32)).compute(seq, b"packet")
names: list[str] = fastmac.ssh.names()

badger = fastmac.badger.Badger(key, 20, levels=30)
tag = badger.mac(nonce, b"message")
badger.verify_prefix(nonce, b"message", tag[:8], 2)
bstate: fastmac.badger.BadgerState = badger.new(b"message")
bstate.verify(nonce, tag, trees=5)
bsender = fastmac.badger.BadgerSender(key, 8)
breceiver = fastmac.badger.BadgerReceiver(key, 8)
breceiver.verify(b"m", bsender.tag(b"m"), trees=1)
bound: float = fastmac.badger.forgery_bound_log2(2, 1 << 20)

fastmac.asyncssh.install()
fastmac.asyncssh.uninstall()
fastmac.paramiko.install()
fastmac.paramiko.uninstall()

try:
    umac.verify(nonce, b"data", tag)
except fastmac.InvalidTag:
    pass
except fastmac.NonceExhaustedError as error:
    message: str = str(error)

try:
    state.update(b"more")
    state.digest(nonce)
except fastmac.NonceReuseError as reuse:
    reuse_message: str = str(reuse)
