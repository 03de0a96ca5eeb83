"""A drop-in for the PyPI package ``umac`` 2.0.

Change ``from umac import UMAC`` to ``from fastmac.compat import UMAC``:
same constructor ``UMAC(digest_size, key, nonce)``, same ``update(data)``
(returns None) and ``digest()``, plus ``hexdigest()`` and ``copy()``.

Unlike ``umac`` 2.0 it is correct for messages of 16 MiB and more (RFC 4418
section 5.3, POLY128), releases every buffer it is given, does not corrupt
``None``'s reference count on CPython 3.11, and accepts any buffer. The
object has one nonce, so it gives tags of one message only: ``digest()``
after more ``update()`` than the last ``digest()`` saw raises
``fastmac.NonceReuseError`` (``umac`` 2.0 returns a second tag under the
same nonce, which leaks the hashes' difference). The
object re-derives the key for each message, like the API it copies: for
many messages under one key use ``fastmac.UMAC``, which keys once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._fastmac import UMAC as _KeyedUMAC
from ._fastmac import NonceLengthError

if TYPE_CHECKING:  # collections.abc.Buffer from 3.12; this works on 3.11 too
    from typing_extensions import Buffer

__all__ = ["UMAC"]


class UMAC:
    """UMAC(digest_size, key, nonce): one message under one key and nonce.

    ``digest_size`` is 4, 8, 12 or 16; ``key`` 16 bytes; ``nonce`` 1 to 16
    bytes. Errors are ``ValueError`` subclasses, as in ``umac`` 2.0.
    """

    __slots__ = ("_state", "_nonce")

    def __init__(self, digest_size: int, key: Buffer, nonce: Buffer) -> None:
        nonce = bytes(nonce)
        if not 1 <= len(nonce) <= 16:
            raise NonceLengthError(
                f"wrong nonce length: expected 1 to 16 bytes, got {len(nonce)}"
            )
        self._state = _KeyedUMAC(key, digest_size).new()
        self._nonce = nonce

    @property
    def digest_size(self) -> int:
        """Tag length in bytes."""
        return self._state.digest_size

    def update(self, data: Buffer, /) -> None:
        """Appends ``data`` (any buffer) to the message."""
        self._state.update(data)

    def digest(self) -> bytes:
        """The tag of the message so far. The object stays usable, but
        after more ``update()`` a ``digest()`` raises ``NonceReuseError``."""
        return self._state.digest(self._nonce)

    def hexdigest(self) -> str:
        """``digest()`` in lowercase hex."""
        return self._state.hexdigest(self._nonce)

    def copy(self) -> UMAC:
        """An independent copy (same key, nonce and message so far)."""
        other = UMAC.__new__(UMAC)
        other._state = self._state.copy()
        other._nonce = self._nonce
        return other
