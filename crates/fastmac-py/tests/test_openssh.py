"""fastmac's SSH MACs against a real OpenSSH server and client.

For each MAC, offered alone:
* paramiko with fastmac.paramiko connects to ``/usr/sbin/sshd -D``, runs
  ``echo hello``, moves 4 MiB each way with a SHA-256 check, passes re-keys
  (sshd ``RekeyLimit 768K``), and sshd's log names the negotiated MAC;
* a negative control: a client that corrupts one byte of one outgoing tag is
  cut off by sshd with "Corrupted MAC on input";
* the real ``ssh`` client against a paramiko server using fastmac.
Every tag on these connections is computed and checked by fastmac: the test
asserts that paramiko's per-direction MAC objects are fastmac's.
"""

from __future__ import annotations

import hashlib
import os

import paramiko
import pytest

import fastmac.paramiko
from paramiko_harness import ParamikoServer, connect, run
from sshd_harness import CIPHER, MIB, REKEY_LIMIT, Sshd, key_exchanges, leftover_servers, make_keys, pattern, run_ssh

UMAC_MACS = [
    "umac-64@openssh.com",
    "umac-128@openssh.com",
    "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com",
]
HMAC_MACS = ["hmac-sha2-256-etm@openssh.com", "hmac-sha1"]
pytestmark = pytest.mark.ssh_session
MACS = UMAC_MACS + HMAC_MACS
TRANSFER = 4 * MIB


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return make_keys(tmp_path_factory.mktemp("ssh-keys"))


@pytest.fixture
def sshd(request, keys, tmp_path):
    with Sshd(tmp_path, keys, request.param, rekey_limit=REKEY_LIMIT) as server:
        yield server


def mac_objects(transport: paramiko.Transport):
    """paramiko's inbound and outbound MAC engines on this transport."""
    packetizer = transport.packetizer
    return packetizer._Packetizer__mac_engine_in, packetizer._Packetizer__mac_engine_out


def assert_fastmac_computes(transport: paramiko.Transport, mac: str) -> None:
    assert transport.local_mac == mac and transport.remote_mac == mac
    for engine in mac_objects(transport):
        assert isinstance(engine, fastmac.paramiko.KeyedMac), engine
        assert engine.mac.name == mac


def kex_lines(log: str, mac: str) -> list:
    """The log's key exchange lines (one per direction) naming ``mac``."""
    return [kex for kex in key_exchanges(log) if (kex.cipher, kex.mac) == (CIPHER, mac)]


def ssh_client(port: int, keys, mac: str, command: str, stdin_data: bytes, timeout: float = 120):
    return run_ssh(port, keys, mac, command, stdin_data, timeout=timeout, rekey_limit=REKEY_LIMIT)


@pytest.mark.parametrize("sshd", MACS, indirect=True)
def test_paramiko_with_fastmac_against_sshd(sshd):
    client = connect(sshd, fastmac.paramiko.Transport)
    try:
        transport = client.get_transport()
        assert_fastmac_computes(transport, sshd.mac)

        out, status = run(client, "echo hello")
        assert (out, status) == (b"hello\n", 0)

        upload = os.urandom(TRANSFER)
        out, status = run(client, "sha256sum", upload)
        assert status == 0
        assert out.split()[0].decode() == hashlib.sha256(upload).hexdigest()

        download_file = sshd.work / "download.bin"
        download = os.urandom(TRANSFER)
        download_file.write_bytes(download)
        out, status = run(client, f"cat {download_file}")
        assert status == 0 and len(out) == TRANSFER
        assert hashlib.sha256(out).digest() == hashlib.sha256(download).digest()

        # Re-keyed (RekeyLimit 768K, 8 MiB moved), and fastmac keyed anew.
        assert_fastmac_computes(transport, sshd.mac)
        out, status = run(client, "echo hello")
        assert (out, status) == (b"hello\n", 0)
    finally:
        client.close()
    # sshd names the MAC for both directions at the first key exchange and
    # at every re-key (the log is written by sshd's per-connection process,
    # which may trail the client: wait for its writes).
    sshd.wait_until(lambda log: len(kex_lines(log, sshd.mac)) >= 4, timeout=20)
    log = sshd.log_text()
    assert len(kex_lines(log, sshd.mac)) >= 4, f"expected a key exchange and a re-key with {sshd.mac}:\n{log}"
    assert "Corrupted MAC" not in log


@pytest.mark.parametrize("sshd", ["umac-128-etm@openssh.com"], indirect=True)
def test_install_makes_every_paramiko_transport_use_fastmac(sshd):
    """The one-call form: fastmac.paramiko.install(), then plain paramiko."""
    fastmac.paramiko.install()
    try:
        client = connect(sshd, paramiko.Transport)
        try:
            assert_fastmac_computes(client.get_transport(), sshd.mac)
            assert run(client, "echo hello") == (b"hello\n", 0)
        finally:
            client.close()
    finally:
        fastmac.paramiko.uninstall()
    assert "umac-128-etm@openssh.com" not in paramiko.Transport._preferred_macs


class CorruptOnce(fastmac.paramiko.KeyedMac):
    """Flips one bit of one outgoing tag."""

    __slots__ = ("armed",)

    def __init__(self, mac) -> None:
        super().__init__(mac)
        self.armed = True

    def tag(self, message: bytes) -> bytes:
        tag = super().tag(message)
        if self.armed:
            self.armed = False
            tag = bytes([tag[0] ^ 0x01]) + tag[1:]
        return tag


@pytest.mark.parametrize("sshd", MACS, indirect=True)
def test_sshd_cuts_off_a_corrupted_tag(sshd):
    client = connect(sshd, fastmac.paramiko.Transport)
    try:
        transport = client.get_transport()
        out, status = run(client, "echo hello")
        assert (out, status) == (b"hello\n", 0)
        packetizer = transport.packetizer
        # Outbound only: corrupting what we receive would test paramiko.
        packetizer._Packetizer__mac_engine_out = CorruptOnce(packetizer._Packetizer__mac_engine_out.mac)
        with pytest.raises((paramiko.SSHException, EOFError, OSError)):
            run(client, "echo hello", timeout=20)
        assert sshd.wait_for_log("Corrupted MAC on input", timeout=15), sshd.log_text()
        transport.join(10)
        assert not transport.is_active()
    finally:
        client.close()


@pytest.mark.parametrize("mac", MACS)
def test_openssh_client_against_paramiko_server_with_fastmac(mac, keys):
    with ParamikoServer(keys, fastmac.paramiko.Transport) as server:
        hello = ssh_client(server.port, keys, mac, "echo hello", b"")
        assert (hello.returncode, hello.stdout) == (0, b"hello\n"), hello.stderr.decode(errors="replace")
        assert kex_lines(hello.stderr.decode(errors="replace"), mac), hello.stderr.decode(errors="replace")

        upload = os.urandom(TRANSFER)
        result = ssh_client(server.port, keys, mac, f"roundtrip {TRANSFER}", upload)
        debug = result.stderr.decode(errors="replace")
        assert result.returncode == 0, debug[-3000:]
        first_line, _, body = result.stdout.partition(b"\n")
        assert first_line.decode() == hashlib.sha256(upload).hexdigest()
        assert len(body) == TRANSFER
        assert hashlib.sha256(body).digest() == hashlib.sha256(pattern(7, TRANSFER)).digest()
        # The client re-keyed (RekeyLimit 768K) and named the MAC each time.
        assert len(kex_lines(debug, mac)) >= 4, debug[-3000:]
        assert server.errors == []
        assert len(server.transports) == 2
        for transport in server.transports:
            assert_fastmac_computes(transport, mac)


def test_no_sshd_is_left_running(tmp_path_factory):
    """Every sshd the tests started (with their configs) is gone: Sshd.stop
    waits for each to exit before it returns."""
    assert leftover_servers(under=tmp_path_factory.getbasetemp()) == []
