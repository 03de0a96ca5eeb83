"""fastmac: fast, provably secure message authentication.

* ``fastmac.UMAC(key, digest_size=8)``: UMAC (RFC 4418), a keyed object built
  once, with ``.mac(nonce, data)``, ``.verify(nonce, data, tag)`` and
  ``.new()`` for a streaming state (``update``/``digest``/``hexdigest``/
  ``copy``).
* ``fastmac.ssh.MAC(name, key)``: an SSH MAC by its OpenSSH name
  (``umac-64@openssh.com``, ``hmac-sha2-256-etm@openssh.com``, ...), with
  ``.compute(seq, packet)`` and ``.verify(seq, packet, tag)``.
* ``fastmac.compat.UMAC(digest_size, key, nonce)``: the API of the PyPI
  package ``umac`` 2.0, correct beyond 16 MiB.
* ``fastmac.paramiko.install()``: paramiko offers and uses the UMAC MACs.

Every error is a ``fastmac.Error`` (a ``ValueError``) subclass; a tag that
does not verify raises ``fastmac.InvalidTag``.
"""

from ._fastmac import (
    GIL_MINSIZE,
    UMAC,
    Error,
    InvalidTag,
    KeyLengthError,
    NonceLengthError,
    SequenceNumberError,
    TagLengthError,
    UMACState,
    UnknownAlgorithmError,
    __version__,
)
from . import compat, ssh

__all__ = [
    "GIL_MINSIZE",
    "UMAC",
    "UMACState",
    "Error",
    "InvalidTag",
    "KeyLengthError",
    "NonceLengthError",
    "SequenceNumberError",
    "TagLengthError",
    "UnknownAlgorithmError",
    "compat",
    "ssh",
    "__version__",
]
