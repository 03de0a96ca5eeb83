"""fastmac.paramiko without a network: what it offers, and that its keyed
MACs give paramiko exactly the bytes paramiko's own HMAC code gives."""

from __future__ import annotations

import random
import struct

import paramiko
import paramiko.packet

import fastmac.paramiko
from fastmac.paramiko import UMAC_NAMES


def test_install_offers_umac_first_and_uninstall_restores():
    fastmac.paramiko.uninstall()  # other tests' Transports may have hooked in
    before = (paramiko.Transport._preferred_macs, dict(paramiko.Transport._mac_info), paramiko.packet.compute_hmac)
    fastmac.paramiko.install()
    fastmac.paramiko.install()  # idempotent
    try:
        preferred = paramiko.Transport._preferred_macs
        assert preferred[:4] == UMAC_NAMES
        assert preferred[4:] == before[0]  # paramiko's own list, order kept
        for name in UMAC_NAMES + ("hmac-sha2-256-etm@openssh.com", "hmac-sha1"):
            info = paramiko.Transport._mac_info[name]
            assert issubclass(info["class"], fastmac.paramiko.MacMarker)
            assert info["class"]().digest_size == next(k for n, k, _t, _e in fastmac.ssh.algorithms() if n == name)
        assert paramiko.packet.compute_hmac is not before[2]
    finally:
        fastmac.paramiko.uninstall()
    assert paramiko.Transport._preferred_macs == before[0]
    assert paramiko.Transport._mac_info == before[1]
    assert paramiko.packet.compute_hmac is before[2]


def test_transport_subclass_leaves_other_transports_alone():
    assert fastmac.paramiko.Transport._preferred_macs[:4] == UMAC_NAMES
    assert "umac-64@openssh.com" not in paramiko.Transport._preferred_macs


def test_keyed_macs_equal_paramikos_hmac_on_paramikos_layout():
    """Outbound: uint32 seq || packet; inbound: uint32 seq || uint32 len || ..."""
    rng = random.Random(5)
    fastmac.paramiko.uninstall()  # paramiko's own _mac_info and compute_hmac
    original = paramiko.packet.compute_hmac
    for name, info in paramiko.Transport._mac_info.items():
        key = rng.randbytes(info["class"]().digest_size)
        keyed = fastmac.paramiko.KeyedMac(fastmac.ssh.MAC(name, key))
        for _ in range(30):
            seq = rng.getrandbits(32)
            packet = rng.randbytes(rng.randrange(4, 4000))
            message = struct.pack(">I", seq) + packet
            assert keyed.tag(message) == original(key, message, info["class"])[: info["size"]], name


def test_keyed_mac_uses_seq_as_umac_nonce():
    key = bytes(range(16))
    keyed = fastmac.paramiko.KeyedMac(fastmac.ssh.MAC("umac-128-etm@openssh.com", key))
    packet = b"\x00\x00\x00\x20" + bytes(32)
    assert keyed.tag(struct.pack(">I", 77) + packet) == fastmac.UMAC(key, 16).mac((77).to_bytes(8, "big"), packet)
