"""Make asyncssh (2.x) offer and use UMAC through fastmac, without Nettle.

>>> import fastmac.asyncssh
>>> fastmac.asyncssh.install()          # before the first ``import asyncssh``
>>> import asyncssh

asyncssh then offers ``umac-64-etm@openssh.com``, ``umac-128-etm@openssh.com``,
``umac-64@openssh.com`` and ``umac-128@openssh.com`` where it would with
Nettle (first among its MACs, the ``-etm`` forms ahead), and computes them
with one keyed ``fastmac.ssh.MAC`` per direction and key exchange. Its
other MACs are left as they are. ``uninstall()`` puts asyncssh's MAC tables
back as they were before ``install()``.

How it hooks in (asyncssh 2.x, ``asyncssh/mac.py`` and
``asyncssh/crypto/umac.py``): asyncssh registers UMAC only when its module
``asyncssh.crypto.umac`` loads GNU Nettle through ``ctypes`` at import time,
and then keys Nettle's UMAC anew for every packet. ``install()`` marks that
module as absent in ``sys.modules`` before asyncssh is imported, so the
import fails the way it does on a machine without Nettle (asyncssh catches
it) and ``ctypes`` never loads libnettle; then it registers the four UMAC
names in asyncssh's tables (``_mac_algs``, ``_default_mac_algs``,
``_mac_handler``, ``_mac_params``, which ``get_mac`` and the connection's
algorithm negotiation read on every connection) with a handler backed by
fastmac. If asyncssh was imported earlier, Nettle may already be loaded:
``install()`` then still routes the UMAC names through fastmac, but cannot
unload it.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from . import InvalidTag, TagLengthError
from . import ssh as _ssh

__all__ = ["install", "uninstall", "installed", "UMAC_NAMES", "FastmacMAC"]

#: The UMAC names, in the order asyncssh prefers them with Nettle: the
#: ``-etm`` forms first among all its MACs, the others first among its
#: encrypt-and-MAC ones.
UMAC_NAMES = (
    "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com",
    "umac-64@openssh.com",
    "umac-128@openssh.com",
)

#: asyncssh's Nettle wrapper, imported by ``asyncssh.crypto``.
_NETTLE_MODULE = "asyncssh.crypto.umac"
#: The first of asyncssh's own encrypt-and-MAC names: the non-etm UMACs go
#: before it, where asyncssh puts them with Nettle.
_FIRST_PLAIN_HMAC = b"hmac-sha2-256"


class FastmacMAC:
    """asyncssh's MAC interface (``sign``/``verify`` with the packet
    sequence number) over one keyed ``fastmac.ssh.MAC``."""

    __slots__ = ("mac",)

    def __init__(self, key: bytes, hash_size: int, name: str) -> None:
        # asyncssh passes the digest size it registered; fastmac knows it.
        self.mac = _ssh.MAC(name, key)

    def sign(self, seq: int, packet: bytes) -> bytes:
        """The tag of packet number ``seq``."""
        return self.mac.compute(seq, packet)

    def verify(self, seq: int, packet: bytes, sig: bytes) -> bool:
        """Constant-time check (asyncssh wants a bool, not an exception)."""
        try:
            self.mac.verify(seq, packet, sig)
        except (InvalidTag, TagLengthError):
            return False
        return True


class _Saved:
    """asyncssh's MAC tables (copies) and whether install() blocked Nettle."""

    def __init__(self, mac_module: Any, blocked_nettle: bool) -> None:
        self.algs = list(mac_module._mac_algs)
        self.default_algs = list(mac_module._default_mac_algs)
        self.handler = dict(mac_module._mac_handler)
        self.params = dict(mac_module._mac_params)
        self.blocked_nettle = blocked_nettle

    def restore(self, mac_module: Any) -> None:
        # In place: other modules hold these very objects.
        mac_module._mac_algs[:] = self.algs
        mac_module._default_mac_algs[:] = self.default_algs
        mac_module._mac_handler.clear()
        mac_module._mac_handler.update(self.handler)
        mac_module._mac_params.clear()
        mac_module._mac_params.update(self.params)


_lock = threading.Lock()
_saved: _Saved | None = None


def _with_umacs(table: list[bytes]) -> list[bytes]:
    """``table`` with the UMAC names where asyncssh puts them with Nettle:
    the ``-etm`` forms first, the others before its first encrypt-and-MAC
    HMAC."""
    others = [name for name in table if name.decode() not in UMAC_NAMES]
    etm = [name.encode() for name in UMAC_NAMES if "-etm@" in name]
    plain = [name.encode() for name in UMAC_NAMES if "-etm@" not in name]
    cut = others.index(_FIRST_PLAIN_HMAC) if _FIRST_PLAIN_HMAC in others else len(others)
    return etm + others[:cut] + plain + others[cut:]


def _register(mac_module: Any) -> None:
    """Puts the UMAC names in asyncssh's tables, backed by fastmac."""
    for table in (mac_module._mac_algs, mac_module._default_mac_algs):
        table[:] = _with_umacs(table)
    for name, key_size, digest_size, etm in _ssh.algorithms():
        if name in UMAC_NAMES:
            encoded = name.encode()
            mac_module._mac_handler[encoded] = (FastmacMAC, digest_size, (name,))
            mac_module._mac_params[encoded] = (key_size, digest_size, etm)


def install() -> None:
    """Make asyncssh offer and use fastmac's UMACs (idempotent).

    Call it before the first ``import asyncssh`` to keep GNU Nettle out of
    the process.
    """
    global _saved
    with _lock:
        if _saved is not None:
            return
        blocked_nettle = _NETTLE_MODULE not in sys.modules
        if blocked_nettle:
            # A None entry makes ``import asyncssh.crypto.umac`` raise
            # ImportError, which asyncssh catches as "Nettle not found".
            sys.modules[_NETTLE_MODULE] = None  # type: ignore[assignment]
        import asyncssh.mac

        _saved = _Saved(asyncssh.mac, blocked_nettle)
        _register(asyncssh.mac)


def uninstall() -> None:
    """Undo ``install()``: asyncssh's MAC tables as they were before."""
    global _saved
    with _lock:
        if _saved is None:
            return
        import asyncssh.mac

        _saved.restore(asyncssh.mac)
        if _saved.blocked_nettle and sys.modules.get(_NETTLE_MODULE, 0) is None:
            del sys.modules[_NETTLE_MODULE]
        _saved = None


def installed() -> bool:
    """Whether ``install()`` is in effect."""
    return _saved is not None
