"""fastmac: fast, provably secure message authentication.

* ``fastmac.UMAC(key, digest_size=8)``: UMAC (RFC 4418), a keyed object built
  once, with ``.mac(nonce, data)``, ``.verify(nonce, data, tag)`` and
  ``.new()`` for a streaming state (``update``/``digest``/``hexdigest``/
  ``copy``).
* ``fastmac.SequencedUMAC(key, digest_size=8)``: UMAC that owns its counter
  nonce: ``.tag(data)`` returns ``(nonce, tag)``; a nonce never repeats, and
  at the limit it raises ``NonceExhaustedError``.
* ``fastmac.ssh.MAC(name, key)``: an SSH MAC by its OpenSSH name
  (``umac-64@openssh.com``, ``hmac-sha2-256-etm@openssh.com``, ...), with
  ``.compute(seq, packet)`` and ``.verify(seq, packet, tag)``;
  ``fastmac.ssh.OutboundMAC``/``InboundMAC`` own the packet numbers.
* ``fastmac.badger``: Badger (nonce and sequential modes, verification of
  the first trees of a tag).
* ``fastmac.compat.UMAC(digest_size, key, nonce)``: the API of the PyPI
  package ``umac`` 2.0, correct beyond 16 MiB.
* ``fastmac.paramiko.install()`` and ``fastmac.asyncssh.install()``:
  paramiko and asyncssh offer and use the UMAC MACs through fastmac.

Every error is a ``fastmac.Error`` (a ``ValueError``) subclass; a tag that
does not verify raises ``fastmac.InvalidTag``; a streaming state's
``digest`` under the nonce of its last ``digest``, once the message has
grown, raises ``fastmac.NonceReuseError``.
"""

from ._fastmac import (
    GIL_MINSIZE,
    UMAC,
    Error,
    InvalidTag,
    KeyLengthError,
    MessageTooLongError,
    NonceExhaustedError,
    NonceLengthError,
    NonceReuseError,
    OutOfRangeError,
    SequenceNumberError,
    TagLengthError,
    SequencedUMAC,
    UMACState,
    UnknownAlgorithmError,
    ZeroNonceError,
    __version__,
)
from . import badger, compat, ssh

__all__ = [
    "GIL_MINSIZE",
    "UMAC",
    "UMACState",
    "SequencedUMAC",
    "Error",
    "InvalidTag",
    "KeyLengthError",
    "MessageTooLongError",
    "NonceExhaustedError",
    "NonceLengthError",
    "NonceReuseError",
    "OutOfRangeError",
    "SequenceNumberError",
    "TagLengthError",
    "UnknownAlgorithmError",
    "ZeroNonceError",
    "badger",
    "compat",
    "ssh",
    "__version__",
]
