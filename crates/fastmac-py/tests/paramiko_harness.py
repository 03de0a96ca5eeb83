"""paramiko's side of the real-OpenSSH tests: its client connected to a
``Sshd`` of tests/ssh/sshd_harness.py (the one server harness of the
repository), commands run over it, and a paramiko server the ``ssh`` client
connects to. Each is bounded in time.
"""

from __future__ import annotations

import getpass
import hashlib
import socket
import threading

import paramiko
from sshd_harness import Keys, Sshd, pattern


def connect(sshd: Sshd, transport_factory) -> paramiko.SSHClient:
    """paramiko's client to ``sshd`` with the test's client key, through
    ``transport_factory`` (fastmac's transport, or paramiko's)."""
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect(
        "127.0.0.1",
        port=sshd.port,
        username=getpass.getuser(),
        key_filename=str(sshd.keys.client),
        look_for_keys=False,
        allow_agent=False,
        timeout=20,
        banner_timeout=20,
        auth_timeout=20,
        transport_factory=transport_factory,
    )
    return client


def run(client: paramiko.SSHClient, command: str, stdin_data: bytes = b"", timeout: float = 120) -> tuple[bytes, int]:
    """Runs ``command``, feeding ``stdin_data``; returns (stdout, exit status)."""
    channel = client.get_transport().open_session(timeout=20)
    channel.settimeout(timeout)
    channel.exec_command(command)
    received = []

    def reader() -> None:
        while True:
            chunk = channel.recv(1 << 16)
            if not chunk:
                return
            received.append(chunk)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    view = memoryview(stdin_data)
    for start in range(0, len(view), 1 << 16):
        channel.sendall(view[start : start + (1 << 16)])
    channel.shutdown_write()
    thread.join(timeout)
    if thread.is_alive():
        channel.close()
        raise TimeoutError(f"{command!r} did not finish in {timeout} s")
    status = channel.recv_exit_status()
    channel.close()
    return b"".join(received), status


class ParamikoServer:
    """A paramiko SSH server using ``transport_class`` (fastmac's), on a
    free 127.0.0.1 port, answering three commands: ``echo hello``,
    ``roundtrip N`` (reads stdin to EOF, replies with its SHA-256 in hex and
    a newline, then N bytes of ``pattern(7, N)``). Stopped on exit."""

    def __init__(self, keys: Keys, transport_class) -> None:
        self.host_key = paramiko.Ed25519Key(filename=str(keys.host))
        self.client_key = paramiko.Ed25519Key(filename=str(keys.client))
        self.transport_class = transport_class
        self.transports: list[paramiko.Transport] = []
        self.errors: list[BaseException] = []
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []

    def __enter__(self) -> "ParamikoServer":
        thread = threading.Thread(target=self.accept_loop, daemon=True)
        thread.start()
        self.threads.append(thread)
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        for transport in self.transports:
            transport.close()
        for thread in self.threads:
            thread.join(timeout=10)
        self.listener.close()

    def accept_loop(self) -> None:
        while not self.stopping.is_set():
            try:
                sock, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self.serve, args=(sock,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def serve(self, sock: socket.socket) -> None:
        try:
            transport = self.transport_class(sock)
            self.transports.append(transport)
            transport.add_server_key(self.host_key)
            server = _Interface(self.client_key)
            transport.start_server(server=server)
            channel = transport.accept(30)
            if channel is None or not server.command_ready.wait(30):
                return
            channel.settimeout(120)
            command = server.command.decode()
            if command == "echo hello":
                channel.sendall(b"hello\n")
            elif command.startswith("roundtrip "):
                digest = hashlib.sha256()
                while chunk := channel.recv(1 << 16):
                    digest.update(chunk)
                channel.sendall(digest.hexdigest().encode() + b"\n")
                channel.sendall(pattern(7, int(command.split()[1])))
            else:
                channel.send_exit_status(127)
                channel.close()
                return
            channel.send_exit_status(0)
            channel.shutdown_write()
            channel.close()
            # Let the client close first, so that every byte is delivered:
            # the transport's thread ends when the client's side closes.
            transport.join(timeout=30)
        except BaseException as err:  # reported by the test, not lost in a thread
            self.errors.append(err)
        finally:
            sock.close()


class _Interface(paramiko.ServerInterface):
    def __init__(self, client_key: paramiko.PKey) -> None:
        self.client_key = client_key
        self.command = b""
        self.command_ready = threading.Event()

    def get_allowed_auths(self, username: str) -> str:
        return "publickey"

    def check_auth_publickey(self, username: str, key: paramiko.PKey) -> int:
        if key.get_base64() == self.client_key.get_base64():
            return paramiko.AUTH_SUCCESSFUL
        return paramiko.AUTH_FAILED

    def check_channel_request(self, kind: str, chanid: int) -> int:
        if kind == "session":
            return paramiko.OPEN_SUCCEEDED
        return paramiko.OPEN_FAILED_ADMINISTRATIVELY_PROHIBITED

    def check_channel_exec_request(self, channel, command: bytes) -> bool:
        self.command = command
        self.command_ready.set()
        return True
