"""Badger (Boesgaard, Christensen, Zenner, ACNS 2005): a Wegman-Carter MAC
whose hash is a tree of ENH per 4 tag bytes, padded with Rabbit keystream.

* ``Badger(key, digest_size=8)``, nonce mode: ``mac(nonce, data)``,
  ``verify(nonce, data, tag)``, ``verify_prefix(nonce, data, tag, trees)``
  (check only the first ``trees`` 4-byte chunks: less work, a weaker bound)
  and ``new()`` for a streaming ``BadgerState``. The 8-byte nonce must never
  repeat under a key and must not be all zero.
* ``BadgerSender``/``BadgerReceiver``, sequential mode: no nonce; both sides
  walk one keystream, so messages must be checked in the order they were
  tagged. The receiver moves on only when a tag verifies.

``digest_size`` is 4, 8, 12, 16 or 20 bytes (1 to 5 trees); never use one
key in both modes. ``forgery_bound_log2(trees, max_len)`` gives the bound
per forgery attempt.

>>> from fastmac.badger import Badger
>>> mac = Badger(bytes(range(16)))
>>> nonce = (1).to_bytes(8, "little")
>>> tag = mac.mac(nonce, b"message")
>>> mac.verify(nonce, b"message", tag)
>>> mac.verify_prefix(nonce, b"message", tag[:4], 1)
"""

from ._fastmac import (
    BADGER_KEY_SIZE as KEY_SIZE,
    BADGER_MAX_LEVELS as MAX_LEVELS,
    BADGER_MAX_TREES as MAX_TREES,
    BADGER_NONCE_SIZE as NONCE_SIZE,
    Badger,
    BadgerReceiver,
    BadgerSender,
    BadgerState,
    forgery_bound_log2,
)

__all__ = [
    "Badger",
    "BadgerState",
    "BadgerSender",
    "BadgerReceiver",
    "forgery_bound_log2",
    "KEY_SIZE",
    "NONCE_SIZE",
    "MAX_TREES",
    "MAX_LEVELS",
]
