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
"""

from ._fastmac import MAC, algorithms

__all__ = ["MAC", "algorithms", "names"]


def names() -> list[str]:
    """The supported SSH MAC names."""
    return [name for name, _key_size, _digest_size, _etm in algorithms()]
