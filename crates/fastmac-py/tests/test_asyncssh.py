"""fastmac.asyncssh against the real OpenSSH server and client, and the
proof that GNU Nettle stays out of the process.

For each UMAC, offered alone on both ends:
* asyncssh's client (through fastmac) connects to ``/usr/sbin/sshd -D``,
  runs ``echo hello``, moves 4 MiB each way with a SHA-256 check, passes
  re-keys (``RekeyLimit 768K`` on both ends), and sshd's log names the
  negotiated MAC for both directions at every key exchange;
* the real ``ssh`` client against an asyncssh server using fastmac, the
  same transfers, the MAC named in ssh's ``-v`` log;
* negative controls: one flipped bit of one tag sent by asyncssh makes sshd,
  and the ``ssh`` client, report "Corrupted MAC on input".
Every tag on these connections is computed and checked by fastmac: the
tests assert that asyncssh's per-direction MAC objects are fastmac's.

``install()`` runs before asyncssh is first imported, as the module's
documentation asks; Nettle's absence is checked in this process and, with
a control that shows the check can fail, in fresh interpreters.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys

import pytest

import fastmac.asyncssh

fastmac.asyncssh.install()

import asyncssh  # noqa: E402  (after install(): no Nettle)
import asyncssh.mac  # noqa: E402

from asyncssh_harness import (  # noqa: E402
    Server,
    assert_fastmac_computes,
    connect,
    corrupt_next_outbound_tag,
    in_thread,
    libnettle_mappings,
)
from asyncssh_harness import REKEY_BYTES  # noqa: E402
from sshd_harness import CIPHER, MIB, Sshd, key_exchanges, make_keys, pattern, run_ssh  # noqa: E402

UMAC_MACS = list(fastmac.asyncssh.UMAC_NAMES)
TRANSFER = 4 * MIB
#: libnettle mapped when this module imported asyncssh.
NETTLE_BEFORE = bool(libnettle_mappings())


@pytest.fixture(autouse=True)
def installed():
    """Every test starts installed (one test uninstalls)."""
    fastmac.asyncssh.install()
    yield


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return make_keys(tmp_path_factory.mktemp("asyncssh-keys"))


@pytest.fixture
def sshd(request, keys, tmp_path):
    with Sshd(tmp_path, keys, request.param, rekey_limit=REKEY_BYTES) as server:
        yield server


def kex_lines(log: str, mac: str) -> list:
    """The log's key exchange lines (one per direction) naming ``mac``."""
    return [kex for kex in key_exchanges(log) if (kex.cipher, kex.mac) == (CIPHER, mac)]


def ssh_client(port: int, keys, mac: str, command: str, stdin_data: bytes, timeout: float = 120):
    return run_ssh(port, keys, mac, command, stdin_data, timeout=timeout, rekey_limit=REKEY_BYTES)


def run(coroutine, timeout: float = 300):
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


# --- Nettle stays out ------------------------------------------------------

NETTLE_PROBE = r"""
import sys
install = sys.argv[1] == "install"
if install:
    import fastmac.asyncssh
    fastmac.asyncssh.install()
import asyncssh, asyncssh.mac
key = bytes(range(16))
tags = {}
for name in ("umac-64@openssh.com", "umac-128@openssh.com", "umac-64-etm@openssh.com", "umac-128-etm@openssh.com"):
    if name.encode() in asyncssh.mac.get_mac_algs():
        mac = asyncssh.mac.get_mac(name.encode(), key)
        tags[name] = [type(mac).__module__, mac.sign(7, b"packet" * 100).hex()]
maps = [line for line in open("/proc/self/maps") if "libnettle" in line]
print(repr((len(maps), tags)))
"""


def probe(mode: str):
    result = subprocess.run([sys.executable, "-c", NETTLE_PROBE, mode], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return eval(result.stdout)  # noqa: S307 (our own repr of ints and strs)


def test_installed_asyncssh_never_loads_libnettle_and_equals_nettles_umac():
    nettle_maps, fastmac_tags = probe("install")
    assert nettle_maps == 0, "ctypes loaded libnettle although fastmac.asyncssh.install() ran first"
    assert sorted(fastmac_tags) == sorted(UMAC_MACS)
    assert {module for module, _tag in fastmac_tags.values()} == {"fastmac.asyncssh"}
    # Control: plain asyncssh on this machine (Nettle is installed for the
    # differential tests) does load libnettle -- so the check above can fail
    # -- and Nettle's UMAC gives the same tags as fastmac's.
    nettle_maps, nettle_tags = probe("plain")
    assert nettle_maps > 0, "control: asyncssh without fastmac should have loaded libnettle here"
    assert {name: tag for name, (_m, tag) in nettle_tags.items()} == {
        name: tag for name, (_m, tag) in fastmac_tags.items()
    }


LATE_INSTALL_PROBE = r"""
import asyncssh, asyncssh.mac            # first: asyncssh finds Nettle itself
import fastmac.asyncssh
algs = list(asyncssh.mac.get_mac_algs())
def kinds():
    return [type(asyncssh.mac.get_mac(n, bytes(16))).__name__ for n in (b"umac-64@openssh.com", b"umac-128-etm@openssh.com")]
before = kinds()
fastmac.asyncssh.install()
during = kinds()
same_order = asyncssh.mac.get_mac_algs() == algs
fastmac.asyncssh.uninstall()
print(repr((before, during, same_order, kinds(), asyncssh.mac.get_mac_algs() == algs)))
"""


def test_install_after_asyncssh_found_nettle_takes_over_and_uninstall_gives_it_back():
    result = subprocess.run([sys.executable, "-c", LATE_INSTALL_PROBE], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    before, during, same_order, after, restored_order = eval(result.stdout)  # noqa: S307
    assert before == after == ["_UMAC", "_UMAC"]  # asyncssh's Nettle handler
    assert during == ["FastmacMAC", "FastmacMAC"]
    assert same_order and restored_order


def test_this_process_has_no_libnettle_from_asyncssh():
    # pytest imports this module (and asyncssh) before any test runs, so
    # the differential tests' Nettle oracle cannot have loaded it yet.
    assert not NETTLE_BEFORE, "libnettle was mapped before asyncssh was imported: run this module first"
    assert libnettle_mappings() == []
    assert sys.modules["asyncssh.crypto.umac"] is None


def test_offered_in_nettles_order_and_uninstall_restores():
    algs = asyncssh.mac.get_mac_algs()
    assert algs[:2] == [b"umac-64-etm@openssh.com", b"umac-128-etm@openssh.com"]
    plain = algs.index(b"hmac-sha2-256")
    assert algs[plain - 2 : plain] == [b"umac-64@openssh.com", b"umac-128@openssh.com"]
    for name in UMAC_MACS:
        assert name.encode() in asyncssh.mac.get_default_mac_algs()
        assert isinstance(asyncssh.mac.get_mac(name.encode(), bytes(16)), fastmac.asyncssh.FastmacMAC)
    hmac_before = asyncssh.mac.get_mac(b"hmac-sha2-256", bytes(32))

    fastmac.asyncssh.uninstall()
    assert not fastmac.asyncssh.installed()
    # Nettle was blocked, so asyncssh is back to "no UMAC", with its own
    # MACs untouched.
    for name in UMAC_MACS:
        assert name.encode() not in asyncssh.mac.get_mac_algs()
        assert name.encode() not in asyncssh.mac._mac_handler
    assert type(asyncssh.mac.get_mac(b"hmac-sha2-256", bytes(32))) is type(hmac_before)
    assert "asyncssh.crypto.umac" not in sys.modules
    fastmac.asyncssh.uninstall()  # idempotent

    fastmac.asyncssh.install()
    assert asyncssh.mac.get_mac_algs() == algs


def test_fastmac_mac_signs_and_verifies_like_fastmac_ssh():
    key = os.urandom(16)
    for name in UMAC_MACS:
        mac = asyncssh.mac.get_mac(name.encode(), key)
        packet = os.urandom(3000)
        tag = mac.sign(2**32 - 1, packet)
        assert tag == fastmac.ssh.MAC(name, key).compute(2**32 - 1, packet)
        assert mac.verify(2**32 - 1, packet, tag) is True
        assert mac.verify(2**32 - 2, packet, tag) is False
        assert mac.verify(2**32 - 1, packet, tag[:-1]) is False  # wrong length: False, not an exception


# --- asyncssh client -> OpenSSH sshd -----------------------------------------


@pytest.mark.ssh_session
@pytest.mark.parametrize("sshd", UMAC_MACS, indirect=True)
def test_asyncssh_client_with_fastmac_against_sshd(sshd):
    async def session():
        async with await connect(sshd) as conn:
            assert_fastmac_computes(conn, sshd.mac)
            result = await conn.run("echo hello", encoding=None)
            assert (result.stdout, result.exit_status) == (b"hello\n", 0)

            upload = os.urandom(TRANSFER)
            result = await conn.run("sha256sum", input=upload, encoding=None)
            assert result.exit_status == 0
            assert result.stdout.split()[0].decode() == hashlib.sha256(upload).hexdigest()

            download_file = sshd.work / "download.bin"
            download = os.urandom(TRANSFER)
            download_file.write_bytes(download)
            result = await conn.run(f"cat {download_file}", encoding=None)
            assert result.exit_status == 0 and len(result.stdout) == TRANSFER
            assert hashlib.sha256(result.stdout).digest() == hashlib.sha256(download).digest()

            # Re-keyed (768 KiB limits, 8 MiB moved), and fastmac keyed anew.
            assert_fastmac_computes(conn, sshd.mac)
            result = await conn.run("echo hello", encoding=None)
            assert (result.stdout, result.exit_status) == (b"hello\n", 0)

    run(session())
    # sshd names the MAC for both directions at the first key exchange and
    # at every re-key (written by its per-connection process, which may
    # trail the client: wait for its writes).
    sshd.wait_until(lambda log: len(kex_lines(log, sshd.mac)) >= 4, timeout=20)
    log = sshd.log_text()
    lines = kex_lines(log, sshd.mac)
    assert len(lines) >= 4, f"expected a key exchange and a re-key with {sshd.mac}:\n{log}"
    assert "Corrupted MAC" not in log
    print(f"sshd log, {sshd.mac}: {len(lines)} kex lines, first: {lines[0]}")


@pytest.mark.ssh_session
@pytest.mark.parametrize("sshd", UMAC_MACS, indirect=True)
def test_sshd_cuts_off_a_tag_with_one_flipped_bit(sshd):
    async def session():
        conn = await connect(sshd)
        try:
            result = await conn.run("echo hello", encoding=None)
            assert (result.stdout, result.exit_status) == (b"hello\n", 0)
            corrupt_next_outbound_tag(conn)
            with pytest.raises((asyncssh.Error, OSError)):
                await asyncio.wait_for(conn.run("echo hello", encoding=None, check=True), 20)
        finally:
            conn.close()
            await conn.wait_closed()

    run(session())
    assert sshd.wait_for_log("Corrupted MAC on input", timeout=15), sshd.log_text()


# --- OpenSSH ssh client -> asyncssh server ----------------------------------------


@pytest.mark.ssh_session
@pytest.mark.parametrize("mac", UMAC_MACS)
def test_openssh_client_against_asyncssh_server_with_fastmac(mac, keys):
    async def session():
        async with Server(keys, mac) as server:
            hello = await in_thread(ssh_client, server.port, keys, mac, "echo hello", b"")
            debug = hello.stderr.decode(errors="replace")
            assert (hello.returncode, hello.stdout) == (0, b"hello\n"), debug[-3000:]
            assert kex_lines(debug, mac), debug[-3000:]

            upload = os.urandom(TRANSFER)
            result = await in_thread(ssh_client, server.port, keys, mac, f"roundtrip {TRANSFER}", upload)
            debug = result.stderr.decode(errors="replace")
            assert result.returncode == 0, debug[-3000:]
            first_line, _, body = result.stdout.partition(b"\n")
            assert first_line.decode() == hashlib.sha256(upload).hexdigest()
            assert len(body) == TRANSFER
            assert hashlib.sha256(body).digest() == hashlib.sha256(pattern(7, TRANSFER)).digest()
            # The client re-keyed (RekeyLimit 768K) and named the MAC each time.
            assert len(kex_lines(debug, mac)) >= 4, debug[-3000:]
            assert "Corrupted MAC" not in debug
            assert server.errors == []
            assert len(server.connections) == 2
            for conn in server.connections:
                assert_fastmac_computes(conn, mac)

    run(session())


@pytest.mark.ssh_session
@pytest.mark.parametrize("mac", UMAC_MACS)
def test_openssh_client_reports_a_tag_with_one_flipped_bit(mac, keys):
    async def session():
        async with Server(keys, mac) as server:
            result = await in_thread(ssh_client, server.port, keys, mac, "corrupt", b"", 30)
            debug = result.stderr.decode(errors="replace")
            assert result.returncode != 0, debug[-3000:]
            assert "Corrupted MAC on input" in debug, debug[-3000:]
            assert b"this packet's tag is wrong" not in result.stdout

    run(session())
