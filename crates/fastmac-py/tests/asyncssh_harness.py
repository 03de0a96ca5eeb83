"""asyncssh's side of the real-OpenSSH tests: a client connection to
``Sshd`` (tests/ssh/sshd_harness.py) and a server the ``ssh`` client connects to, both offering exactly
one MAC, and the one-bit tag corruption of the negative controls.

The caller must have run ``fastmac.asyncssh.install()`` before importing
this module (it imports asyncssh).
"""

from __future__ import annotations

import asyncio
import getpass
import hashlib

import asyncssh

import fastmac.asyncssh
from sshd_harness import CIPHER, REKEY_LIMIT, Keys, Sshd, pattern

#: asyncssh rekeys after this many bytes too (as the sshd and ssh sides).
REKEY_BYTES = REKEY_LIMIT


def libnettle_mappings() -> list[str]:
    """Lines of /proc/self/maps naming libnettle: empty unless something
    (ctypes) loaded GNU Nettle into this process."""
    with open("/proc/self/maps") as maps:
        return [line.strip() for line in maps if "libnettle" in line]


def mac_engines(conn: asyncssh.SSHClientConnection | asyncssh.SSHServerConnection) -> tuple[object, object]:
    """The connection's outbound and inbound MAC objects (asyncssh keeps
    them on its per-direction encryption objects)."""
    send, recv = conn._send_encryption, conn._recv_encryption  # noqa: SLF001
    return send._mac, recv._mac  # type: ignore[union-attr]


def assert_fastmac_computes(conn, mac: str) -> None:
    """Both directions' MACs are fastmac's, keyed for ``mac``."""
    for engine in mac_engines(conn):
        assert isinstance(engine, fastmac.asyncssh.FastmacMAC), engine
        assert engine.mac.name == mac


class CorruptOnce:
    """Wraps a connection's outbound MAC and flips one bit of the next tag."""

    def __init__(self, inner: fastmac.asyncssh.FastmacMAC) -> None:
        self.inner = inner
        self.armed = True

    def sign(self, seq: int, packet: bytes) -> bytes:
        tag = self.inner.sign(seq, packet)
        if self.armed:
            self.armed = False
            tag = bytes([tag[0] ^ 0x01]) + tag[1:]
        return tag

    def verify(self, seq: int, packet: bytes, sig: bytes) -> bool:
        return self.inner.verify(seq, packet, sig)


def corrupt_next_outbound_tag(conn) -> None:
    send = conn._send_encryption  # noqa: SLF001
    send._mac = CorruptOnce(send._mac)


async def connect(sshd: Sshd) -> asyncssh.SSHClientConnection:
    """asyncssh's client to ``sshd``, offering only sshd's MAC."""
    return await asyncssh.connect(
        "127.0.0.1",
        sshd.port,
        username=getpass.getuser(),
        client_keys=[str(sshd.keys.client)],
        known_hosts=None,
        config=None,
        agent_path=None,
        encryption_algs=[CIPHER],
        mac_algs=[sshd.mac],
        compression_algs=None,
        rekey_bytes=REKEY_BYTES,
        connect_timeout=20,
    )


class Server:
    """An asyncssh server on a free 127.0.0.1 port offering one MAC and
    answering ``echo hello``, ``roundtrip N`` (reads stdin to EOF, replies
    with its SHA-256 in hex and a newline, then ``pattern(7, N)``) and
    ``corrupt`` (flips one bit of the next tag it sends, then writes).
    Connections are kept in ``connections``; errors in ``errors``."""

    def __init__(self, keys: Keys, mac: str) -> None:
        self.keys = keys
        self.mac = mac
        self.connections: list[asyncssh.SSHServerConnection] = []
        self.errors: list[BaseException] = []
        self.server: asyncssh.SSHAcceptor | None = None
        self.port = 0

    async def __aenter__(self) -> "Server":
        self.server = await asyncssh.listen(
            "127.0.0.1",
            0,
            server_host_keys=[str(self.keys.host)],
            authorized_client_keys=str(self.keys.authorized),
            config=None,
            encryption_algs=[CIPHER],
            mac_algs=[self.mac],
            compression_algs=None,
            rekey_bytes=REKEY_BYTES,
            encoding=None,
            process_factory=self.handle,
            acceptor=self.connections.append,
        )
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def handle(self, process: asyncssh.SSHServerProcess) -> None:
        try:
            command = process.command or ""
            if command == "echo hello":
                process.stdout.write(b"hello\n")
            elif command == "corrupt":
                corrupt_next_outbound_tag(process.channel.get_connection())
                process.stdout.write(b"this packet's tag is wrong\n")
            elif command.startswith("roundtrip "):
                digest = hashlib.sha256()
                while chunk := await process.stdin.read(1 << 16):
                    digest.update(chunk)
                process.stdout.write(digest.hexdigest().encode() + b"\n")
                process.stdout.write(pattern(7, int(command.split()[1])))
            else:
                process.exit(127)
                return
            await process.stdout.drain()
            process.exit(0)
        except (asyncssh.Error, OSError) as err:
            if command != "corrupt":
                self.errors.append(err)
                process.exit(1)
        except BaseException as err:  # reported by the test, not lost in a task
            self.errors.append(err)
            raise


async def in_thread(function, *args):
    """Runs a blocking call (the ``ssh`` client) off the event loop."""
    return await asyncio.get_running_loop().run_in_executor(None, function, *args)
