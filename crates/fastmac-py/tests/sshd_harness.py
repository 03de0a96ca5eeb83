"""A real OpenSSH server, and a paramiko server, started and stopped by the
tests on 127.0.0.1, each bounded in time.

OpenSSH pitfalls handled here (see docs/ssh.md 1.4):
sshd must be started by absolute path; as root it needs /run/sshd; ``-E``
appends, so each instance gets its own log and readiness is the line
``Server listening on 127.0.0.1 port N.``; StrictModes is off because the
test's key files live in a temporary directory.
"""

from __future__ import annotations

import getpass
import hashlib
import os
import random
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import paramiko

SSHD = "/usr/sbin/sshd"
SSH = shutil.which("ssh") or "/usr/bin/ssh"
SSH_KEYGEN = shutil.which("ssh-keygen") or "/usr/bin/ssh-keygen"
CIPHER = "aes128-ctr"  # not an AEAD: with chacha20-poly1305 or GCM there is no MAC
REKEY_LIMIT = "4M"
MIB = 1 << 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def make_keys(directory: Path) -> dict[str, Path]:
    """A host key and a client key (ed25519), and authorized_keys."""
    keys = {}
    for name in ("host", "client"):
        path = directory / f"{name}_ed25519"
        subprocess.run(
            [SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", f"fastmac-test-{name}", "-f", str(path)],
            check=True,
            timeout=30,
        )
        keys[name] = path
    authorized = directory / "authorized_keys"
    authorized.write_text((directory / "client_ed25519.pub").read_text())
    authorized.chmod(0o600)
    keys["authorized"] = authorized
    return keys


class Sshd:
    """``/usr/sbin/sshd -D`` offering exactly one MAC, with its own host
    key, config and log. A context manager: the process is always stopped."""

    def __init__(self, directory: Path, keys: dict[str, Path], mac: str) -> None:
        self.directory = directory
        self.keys = keys
        self.mac = mac
        self.tag = mac.replace("@", "_at_")
        self.log = directory / f"sshd-{self.tag}.log"
        self.process: subprocess.Popen | None = None
        self.port = 0

    def config(self) -> str:
        return "\n".join(
            [
                f"Port {self.port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {self.keys['host']}",
                f"PidFile {self.directory / ('sshd-' + self.tag + '.pid')}",
                f"AuthorizedKeysFile {self.keys['authorized']}",
                "StrictModes no",
                "UsePAM no",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password",
                f"AllowUsers {getpass.getuser()}",
                f"Ciphers {CIPHER}",
                f"MACs {self.mac}",
                f"RekeyLimit {REKEY_LIMIT}",
                "LogLevel DEBUG1",
                "UseDNS no",
                "PrintMotd no",
                "PrintLastLog no",
                "MaxStartups 10:30:20",
                "",
            ]
        )

    def __enter__(self) -> "Sshd":
        if os.geteuid() == 0:
            # The privilege separation directory (Debian creates it in the
            # service unit, which a test does not run).
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        for attempt in range(3):
            self.port = free_port()
            config = self.directory / f"sshd-{self.tag}.conf"
            config.write_text(self.config())
            subprocess.run([SSHD, "-t", "-f", str(config)], check=True, timeout=30)
            self.log.write_text("")
            self.process = subprocess.Popen(
                [SSHD, "-D", "-f", str(config), "-E", str(self.log)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if self.wait_for_log(f"Server listening on 127.0.0.1 port {self.port}.", timeout=15):
                return self
            self.stop()  # the port was taken in between: try another
        raise RuntimeError(f"sshd did not start; log:\n{self.log.read_text()}")

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """Stops the listener and any per-connection sshd it forked (those
        call setsid(), so a process group would not reach them)."""
        if self.process is None:
            return
        children = descendants(self.process.pid)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self.process = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for_log(self, needle: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.log_text():
                return True
            if self.process is not None and self.process.poll() is not None:
                return needle in self.log_text()
            time.sleep(0.05)
        return False

    def connect(self, transport_factory) -> paramiko.SSHClient:
        client = paramiko.SSHClient()
        client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
        client.connect(
            "127.0.0.1",
            port=self.port,
            username=getpass.getuser(),
            key_filename=str(self.keys["client"]),
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


def pattern(seed: int, size: int) -> bytes:
    """Deterministic bytes both ends of a test can produce."""
    return random.Random(seed).randbytes(size)


class ParamikoServer:
    """A paramiko SSH server using ``transport_class`` (fastmac's), on a
    free 127.0.0.1 port, answering three commands: ``echo hello``,
    ``roundtrip N`` (reads stdin to EOF, replies with its SHA-256 in hex and
    a newline, then N bytes of ``pattern(7, N)``). Stopped on exit."""

    def __init__(self, keys: dict[str, Path], transport_class) -> None:
        self.host_key = paramiko.Ed25519Key(filename=str(keys["host"]))
        self.client_key = paramiko.Ed25519Key(filename=str(keys["client"]))
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
            # Let the client close first, so that every byte is delivered.
            deadline = time.monotonic() + 30
            while transport.is_active() and time.monotonic() < deadline:
                time.sleep(0.05)
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


def ssh_client(port: int, keys: dict[str, Path], mac: str, command: str, stdin_data: bytes, timeout: float = 120):
    """The real OpenSSH client, offering exactly ``mac``; returns the
    CompletedProcess (stderr holds the -v debug log)."""
    return subprocess.run(
        [
            SSH,
            "-F", "/dev/null",
            "-v",
            "-p", str(port),
            "-i", str(keys["client"]),
            "-o", "IdentitiesOnly=yes",
            "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null",
            "-o", f"Ciphers={CIPHER}",
            "-o", f"MACs={mac}",
            "-o", f"RekeyLimit={REKEY_LIMIT}",
            "-o", "ConnectTimeout=20",
            f"{getpass.getuser()}@127.0.0.1",
            command,
        ],
        input=stdin_data,
        capture_output=True,
        timeout=timeout,
    )
