"""Make paramiko (5.x) offer and use fastmac's SSH MACs.

>>> import fastmac.paramiko
>>> fastmac.paramiko.install()          # every paramiko Transport from now on

or, for chosen connections only::

    client.connect(host, transport_factory=fastmac.paramiko.Transport)

paramiko then offers ``umac-64-etm@openssh.com``, ``umac-128-etm@openssh.com``,
``umac-64@openssh.com`` and ``umac-128@openssh.com`` first, and computes
those (and, by default, its HMACs too) with one keyed ``fastmac.ssh.MAC`` per
direction, built once per key exchange: no key setup per packet.

How it hooks in (paramiko 5.1, ``paramiko/packet.py``): ``Packetizer``
computes every tag with the module-level ``compute_hmac(key, message,
digest_class)``, where ``message`` is ``uint32 seq || packet`` (etm:
``uint32 seq || uint32 length || ciphertext``). The transport's
``_mac_info`` gives, per name, a "class" whose ``digest_size`` is the key
length to derive. This module registers marker classes there, replaces the
marker by a keyed MAC when the ``Packetizer`` receives the new keys
(``set_inbound_cipher``/``set_outbound_cipher``), and wraps
``compute_hmac`` so that a keyed MAC computes its own tag; any other digest
class goes to paramiko's original function.
"""

from __future__ import annotations

import inspect
import threading

import paramiko
import paramiko.packet

from . import ssh as _ssh

__all__ = ["install", "uninstall", "Transport", "UMAC_NAMES", "DEFAULT_MACS"]

#: The UMAC names, in the order paramiko will prefer them.
UMAC_NAMES = (
    "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com",
    "umac-64@openssh.com",
    "umac-128@openssh.com",
)

#: What ``install()`` routes through fastmac by default: the UMACs and the
#: HMACs paramiko already offers (same bytes, keyed once per direction).
DEFAULT_MACS = UMAC_NAMES + tuple(
    name for name in paramiko.Transport._preferred_macs if name in _ssh.names()
)


class MacMarker:
    """The "class" of a fastmac MAC in a transport's ``_mac_info``.

    paramiko instantiates it only to read ``digest_size``, the number of key
    bytes to derive (OpenSSH's ``key_len``).
    """

    ssh_name = ""
    digest_size = 0


_markers: dict[str, type[MacMarker]] = {}


def _marker(name: str) -> type[MacMarker]:
    if name not in _markers:
        key_size = next(k for n, k, _t, _e in _ssh.algorithms() if n == name)
        cls_name = "fastmac_" + name.replace("-", "_").replace("@", "_at_").replace(".", "_")
        _markers[name] = type(cls_name, (MacMarker,), {"ssh_name": name, "digest_size": key_size})
    return _markers[name]


class KeyedMac:
    """One direction's keyed MAC, standing in for paramiko's digest class."""

    __slots__ = ("mac",)

    def __init__(self, mac: _ssh.MAC) -> None:
        self.mac = mac

    def tag(self, message: bytes) -> bytes:
        """The tag of ``uint32 seq || data`` as paramiko lays it out."""
        view = memoryview(message)
        return self.mac.compute(int.from_bytes(view[:4], "big"), view[4:])


_lock = threading.Lock()
_original_compute_hmac = None
_original_setters: dict[str, object] = {}
_saved_transport_attrs: dict[str, object] = {}


def _compute_hmac(key, message, digest_class):
    if isinstance(digest_class, KeyedMac):
        return digest_class.tag(message)
    return _original_compute_hmac(key, message, digest_class)


def _keying(setter_name: str):
    original = getattr(paramiko.packet.Packetizer, setter_name)
    signature = inspect.signature(original)

    def set_cipher(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        engine = bound.arguments.get("mac_engine")
        if isinstance(engine, type) and issubclass(engine, MacMarker):
            bound.arguments["mac_engine"] = KeyedMac(_ssh.MAC(engine.ssh_name, bound.arguments["mac_key"]))
        return original(*bound.args, **bound.kwargs)

    set_cipher.__wrapped__ = original
    set_cipher.__doc__ = original.__doc__
    return original, set_cipher


def _install_hooks() -> None:
    """Hooks that change nothing for MACs paramiko computes itself."""
    global _original_compute_hmac
    with _lock:
        if _original_compute_hmac is not None:
            return
        _original_compute_hmac = paramiko.packet.compute_hmac
        paramiko.packet.compute_hmac = _compute_hmac
        for name in ("set_inbound_cipher", "set_outbound_cipher"):
            original, wrapper = _keying(name)
            _original_setters[name] = original
            setattr(paramiko.packet.Packetizer, name, wrapper)


def _offer(preferred: tuple, mac_info: dict, macs, prefer: bool) -> tuple[tuple, dict]:
    macs = tuple(macs)
    unknown = [m for m in macs if m not in _ssh.names()]
    if unknown:
        raise ValueError(f"fastmac has no SSH MAC named {unknown[0]!r}")
    mac_info = dict(mac_info)
    for name in macs:
        mac_info[name] = {"class": _marker(name), "size": next(t for n, _k, t, _e in _ssh.algorithms() if n == name)}
    new_names = tuple(m for m in macs if m not in preferred)
    umacs = tuple(m for m in new_names if m.startswith("umac-"))
    others = tuple(m for m in new_names if not m.startswith("umac-"))
    if prefer:
        preferred = umacs + tuple(preferred) + others
    else:
        preferred = tuple(preferred) + umacs + others
    return preferred, mac_info


def install(macs=DEFAULT_MACS, prefer: bool = True) -> None:
    """Make every paramiko ``Transport`` offer and use fastmac's MACs.

    ``macs``: the SSH names fastmac computes (default: the four UMACs and
    the HMACs paramiko offers). ``prefer``: offer the UMACs before
    paramiko's own MACs. Idempotent; ``uninstall()`` undoes it.
    """
    _install_hooks()
    with _lock:
        if not _saved_transport_attrs:
            _saved_transport_attrs["_preferred_macs"] = paramiko.Transport._preferred_macs
            _saved_transport_attrs["_mac_info"] = paramiko.Transport._mac_info
        preferred, mac_info = _offer(
            _saved_transport_attrs["_preferred_macs"], _saved_transport_attrs["_mac_info"], macs, prefer
        )
        paramiko.Transport._preferred_macs = preferred
        paramiko.Transport._mac_info = mac_info


def uninstall() -> None:
    """Undo ``install()`` and the packet hooks."""
    global _original_compute_hmac
    with _lock:
        for attr, value in _saved_transport_attrs.items():
            setattr(paramiko.Transport, attr, value)
        _saved_transport_attrs.clear()
        if _original_compute_hmac is not None:
            paramiko.packet.compute_hmac = _original_compute_hmac
            _original_compute_hmac = None
        for name, original in _original_setters.items():
            setattr(paramiko.packet.Packetizer, name, original)
        _original_setters.clear()


class Transport(paramiko.Transport):
    """A paramiko ``Transport`` that offers and uses fastmac's MACs, for
    ``SSHClient.connect(..., transport_factory=fastmac.paramiko.Transport)``
    or a server built on ``Transport(sock)``; other transports are left as
    they are."""

    _preferred_macs, _mac_info = _offer(
        paramiko.Transport._preferred_macs, paramiko.Transport._mac_info, DEFAULT_MACS, True
    )

    def __init__(self, *args, **kwargs):
        _install_hooks()
        super().__init__(*args, **kwargs)
