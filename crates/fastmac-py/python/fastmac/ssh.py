"""SSH MACs by their OpenSSH names, computed exactly as OpenSSH does.

``MAC(name, key)`` is keyed once per direction of a connection;
``compute(seq, packet)`` and ``verify(seq, packet, tag)`` take the packet
sequence number (UMAC: its 8-byte big-endian nonce; HMAC: hashed as
``uint32 seq || packet``). For the ``-etm@openssh.com`` forms, ``packet`` is
``uint32 length || ciphertext``.

>>> from fastmac.ssh import MAC
>>> mac = MAC("umac-64@openssh.com", bytes(16))
>>> tag = mac.compute(0, b"packet")
>>> mac.verify(0, b"packet", tag)

``OutboundMAC(name, key)`` and ``InboundMAC(name, key)`` own the sequence
number instead: ``compute(packet)`` returns ``(seq, tag)``, ``verify(packet,
tag)`` returns ``seq``; the numbers continue across ``rekey(name, key)`` and
cannot repeat under one key (OpenSSH's limits, ``REKEY_AFTER_PACKETS`` and
``INBOUND_PACKET_LIMIT``).

>>> from fastmac.ssh import InboundMAC, OutboundMAC
>>> out, inb = OutboundMAC("umac-64-etm@openssh.com", bytes(16)), InboundMAC("umac-64-etm@openssh.com", bytes(16))
>>> seq, tag = out.compute(b"packet")
>>> inb.verify(b"packet", tag) == seq == 0
True
"""

from ._fastmac import (
    INBOUND_PACKET_LIMIT,
    MAC,
    REKEY_AFTER_PACKETS,
    InboundMAC,
    OutboundMAC,
    algorithms,
)

__all__ = [
    "MAC",
    "OutboundMAC",
    "InboundMAC",
    "REKEY_AFTER_PACKETS",
    "INBOUND_PACKET_LIMIT",
    "algorithms",
    "names",
]


def names() -> list[str]:
    """The supported SSH MAC names."""
    return [name for name, _key_size, _digest_size, _etm in algorithms()]
