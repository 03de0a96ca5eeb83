"""Wrong types: ``mypy --strict`` must reject every line marked ``# E:``
(tests/test_typing.py checks each is reported, and nothing else is)."""

from __future__ import annotations

import fastmac
import fastmac.badger
import fastmac.compat
import fastmac.ssh

key = bytes(16)

fastmac.UMAC("a 16-char string")  # E: str is not a buffer
fastmac.UMAC(key, 10)  # E: digest_size is 4, 8, 12 or 16
fastmac.UMAC(key).mac(b"nonce", 42)  # E: int is not a buffer
tag: str = fastmac.UMAC(key).mac(b"nonce", b"data")  # E: tags are bytes
fastmac.UMAC(key).new().verify(b"nonce")  # E: verify needs the tag
nonce: bytes = fastmac.SequencedUMAC(key).tag(b"m")  # E: tag returns (nonce, tag)
fastmac.SequencedUMAC(key, 8, 0)  # E: start is keyword-only
fastmac.compat.UMAC(8, key, b"nonce").update("text")  # E: str is not a buffer
fastmac.ssh.OutboundMAC("umac-64@openssh.com", key).compute(0, b"packet")  # E: it owns the seq
seq: str = fastmac.ssh.InboundMAC("umac-64@openssh.com", key).verify(b"p", b"t")  # E: returns int
fastmac.ssh.MAC("umac-64@openssh.com", key).compute("0", b"packet")  # E: seq is an int
fastmac.badger.Badger(key, 6)  # E: 4, 8, 12, 16 or 20
fastmac.badger.Badger(key).verify_prefix(b"n", b"m", b"t")  # E: trees missing
fastmac.badger.BadgerSender(key).tag(b"m", b"nonce")  # E: no nonce in sequential mode
