"""The one private OpenSSH server of every SSH session test in the repository.

It writes the keys and the sshd_config, starts `sshd -D` on a free port of
127.0.0.1, waits until it listens, reports which cipher and MAC each side
negotiated at every key exchange (read from the `-E` log of sshd and the
`-E` log or `-v` output of ssh), and stops the server with every
per-connection process it forked. Its users: the OpenSSH drop-in's sessions
(crates/fastmac-c/openssh/sessions.py, bench_ssh.py), the Python package's tests
(crates/fastmac-py/tests/test_openssh.py, test_asyncssh.py) and the Go
tests (go/ssh/harness_test.go). Python 3.9+ standard library only.

From Python (add this folder to sys.path):

    from sshd_harness import Sshd, make_keys, ssh_command, key_exchanges

    keys = make_keys(work)                    # host and client ed25519 keys
    with Sshd(work, keys, macs=["umac-64@openssh.com"], rekey_limit="768K",
              binary="/usr/sbin/sshd",        # absolute path
              sshd_session=None,              # OpenSSH >= 9.8: SshdSessionPath
              sshd_auth=None) as sshd:        # OpenSSH >= 10: SshdAuthPath
        offset = sshd.log_size()
        argv = ssh_command("/usr/bin/ssh", sshd.port, keys, "umac-64@openssh.com",
                           remote="cat", rekey_limit="768K", log=work / "ssh.log")
        ...                                   # run argv (or run_ssh(...): the same, run)
        key_exchanges(sshd.log_since(offset)) # [Kex("client->server", "aes128-ctr", mac), ...]
    assert leftover_servers(under=work) == [] # every sshd of the test is gone

From any other language, as a script (each prints one line of JSON):

    sshd_harness.py keys DIR
        -> {"host": P, "host_public": P, "client": P, "client_public": P,
            "authorized": P, "known_hosts": P, "host_key_alias": NAME}
    sshd_harness.py serve --work DIR --mac NAME [--mac NAME...] [--cipher NAME]
                          [--rekey-limit 768K] [--sshd PATH] [--sshd-session PATH]
                          [--sshd-auth PATH] [--name NAME] [--option 'Key value'...]
        -> {"port": N, "pid": N, "log": P, "config": P, "keys": {...}}
        then serves until its standard input closes (or SIGTERM), and stops
        sshd and its per-connection processes before it exits.
    sshd_harness.py client-argv --keys DIR --port N --mac NAME [--ssh PATH]
                          [--cipher NAME] [--rekey-limit 768K] [--log P] -- REMOTE...
        -> ["/usr/bin/ssh", "-F", "/dev/null", ...]
    sshd_harness.py negotiated LOG|-
        -> {"key_exchanges": N, "kex": [["client->server", CIPHER, MAC], ...]}
    sshd_harness.py wait --log P --timeout SECONDS [--pid N] (--line TEXT | --kex N)
        -> {"found": true|false}
        once the log holds the line or the key exchanges, the timeout has
        passed or the server N has exited (woken by the log's writes, not
        by a timer)

The client trusts the host key through `HostKeyAlias` and the keys' own
known_hosts file, so it checks the key of any server (sshd, paramiko,
asyncssh, Go, russh) that uses the harness's host key, on any port.

Pitfalls handled here (docs/ssh.md section 1.4): sshd is started by its
absolute path; as root it needs /run/sshd; `-E` appends, so each server has
its own log and readiness is its line "Server listening on 127.0.0.1 port
N."; StrictModes is off (the keys live in a scratch folder); the port is
held from the kernel's choice until sshd stops (`reserve_port`), so no other
process can take it in between; the per-connection
processes call setsid(), so they are found through /proc by parent and
stopped by PID (a process group would not reach them).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import functools
import getpass
import json
import os
import random
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

SSHD = "/usr/sbin/sshd"
SSH = "/usr/bin/ssh"
SSH_KEYGEN = "/usr/bin/ssh-keygen"
#: Not an AEAD: with chacha20-poly1305 or AES-GCM no MAC is used.
CIPHER = "aes128-ctr"
#: A 4 MiB transfer each way through `cat` passes about 24 key exchanges.
#: Lower limits stop scaling (docs/ssh.md section 1.4): once the data that
#: queues during one key exchange exceeds the limit, OpenSSH starts the next
#: exchange with about every packet, at many times the CPU time.
REKEY_LIMIT = "768K"
MIB = 1 << 20
#: The name under which the client looks the host key up (any port).
HOST_KEY_ALIAS = "fastmac-sshd-harness"
START_TIMEOUT_S = 15
STOP_TIMEOUT_S = 10
KEX_LINE = re.compile(r"kex: (client->server|server->client) cipher: (\S+) MAC: (\S+)")
#: inotify(7)'s event for a write to a watched file.
IN_MODIFY = 0x2


class Keys(NamedTuple):
    """The test's key files: the server's host key, the client's key, the
    server's authorized_keys and the client's known_hosts."""

    host: Path
    client: Path
    authorized: Path
    known_hosts: Path

    def as_json(self) -> dict[str, str]:
        return {
            "host": str(self.host),
            "host_public": str(self.host.with_suffix(".pub")),
            "client": str(self.client),
            "client_public": str(self.client.with_suffix(".pub")),
            "authorized": str(self.authorized),
            "known_hosts": str(self.known_hosts),
            "host_key_alias": HOST_KEY_ALIAS,
        }


class Kex(NamedTuple):
    """One direction of one key exchange, as a log names it."""

    direction: str
    cipher: str
    mac: str


def make_keys(directory: Path) -> Keys:
    """Host and client ed25519 keys in `directory` (kept when present)."""
    directory = Path(directory).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in ("host", "client"):
        path = directory / f"{name}_ed25519"
        if not path.exists():
            subprocess.run(
                [SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", f"fastmac-test-{name}", "-f", str(path)],
                check=True,
                timeout=30,
            )
        paths[name] = path
    authorized = directory / "authorized_keys"
    authorized.write_text(paths["client"].with_suffix(".pub").read_text())
    authorized.chmod(0o600)
    known_hosts = directory / "known_hosts"
    known_hosts.write_text(f"{HOST_KEY_ALIAS} " + paths["host"].with_suffix(".pub").read_text())
    return Keys(paths["host"], paths["client"], authorized, known_hosts)


def reserve_port() -> socket.socket:
    """A TCP socket bound to a port of 127.0.0.1 that the kernel chose,
    with SO_REUSEADDR and never listening. While it is open the kernel hands
    that port to no other socket, and a process that binds it by number
    fails (EADDRINUSE), but sshd, which sets SO_REUSEADDR on its listener
    (Linux lets two such sockets share a port while neither of the others
    listens), binds and listens on it: the port is the server's from the
    kernel's choice on, with no window for another process."""
    reservation = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    reservation.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    reservation.bind(("127.0.0.1", 0))
    return reservation


def descendants(pid: int) -> list[int]:
    """Every live process below `pid` (from /proc), parents first."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def end_processes(pids: list[int]) -> None:
    """SIGTERM to each of `pids` (not our children: sshd's per-connection
    processes call setsid()), then waits until all are gone, SIGKILL for
    any still there after STOP_TIMEOUT_S."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        if wait_until(lambda: not any(running(pid) for pid in pids), STOP_TIMEOUT_S, exits_of=pids):
            return
    pids = [pid for pid in pids if running(pid)]
    raise RuntimeError(f"processes {pids} outlived SIGKILL by {STOP_TIMEOUT_S} s")


def wait_until(
    holds: Callable[[], bool], timeout: float, *, writes_to: Path | None = None, exits_of: Iterable[int] = ()
) -> bool:
    """Whether `holds()` is true within `timeout` seconds. It is asked now
    and again at each event that can change its answer: a write to the
    file `writes_to` (inotify) or the exit of a process of `exits_of` (a
    pidfd), never on a timer, so a wait ends as soon as what it waits for
    happens. The events are watched before the first question, so none is
    missed between it and the wait."""
    deadline = time.monotonic() + timeout
    with contextlib.ExitStack() as stack:
        writes = stack.enter_context(file_writes(writes_to)) if writes_to is not None else None
        events = [] if writes is None else [writes]
        for pid in exits_of:
            try:
                pidfd = os.pidfd_open(pid)
            except ProcessLookupError:
                continue
            stack.callback(os.close, pidfd)
            events.append(pidfd)
        while not holds():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            ready, _, _ = select.select(events, [], [], remaining)
            for fd in ready:
                if fd == writes:
                    os.read(fd, 1 << 16)  # the events themselves say nothing more
                else:
                    events.remove(fd)  # that process is gone: readable from now on
        return True


def wait_for_text(path: Path, holds: Callable[[str], bool], timeout: float, writer: int | None = None) -> bool:
    """Whether `holds(the text of path)` is true within `timeout` seconds,
    asked again at each write to the file; false as soon as the process
    `writer` (when given) has exited without it."""

    def text() -> str:
        return path.read_text(errors="replace")

    def done() -> bool:
        return holds(text()) or (writer is not None and not running(writer))

    wait_until(done, timeout, writes_to=path, exits_of=[] if writer is None else [writer])
    return holds(text())


@functools.cache
def libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


@contextlib.contextmanager
def file_writes(path: Path) -> Iterator[int]:
    """An inotify descriptor that becomes readable when `path` is written
    to (by any process: sshd's per-connection processes append to the same
    log)."""
    fd = libc().inotify_init1(os.O_CLOEXEC | os.O_NONBLOCK)
    if fd < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"inotify_init1: {os.strerror(errno)}")
    try:
        if libc().inotify_add_watch(fd, os.fsencode(path), IN_MODIFY) < 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"inotify_add_watch: {os.strerror(errno)}", str(path))
        yield fd
    finally:
        os.close(fd)


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def key_exchanges(log: str) -> list[Kex]:
    """Every `kex: DIRECTION cipher: C MAC: M` line of an sshd or ssh debug
    log, in order: two per key exchange, one per direction."""
    return [Kex(*match) for match in KEX_LINE.findall(log)]


def kex_count(log: str) -> int:
    """How many key exchanges a log shows with the lines of both directions
    (the first and every re-key): a wait for N of them does not end between
    an exchange's two lines."""
    directions = [kex.direction for kex in key_exchanges(log)]
    return min(directions.count("client->server"), directions.count("server->client"))


def pattern(seed: int, size: int) -> bytes:
    """Deterministic bytes that both ends of a session can produce."""
    return random.Random(seed).randbytes(size)


class Sshd:
    """`sshd -D` of one build, offering `macs` with `cipher`, with its own
    config, PID file and log under `work`. A context manager: the server
    and its per-connection processes are always stopped."""

    def __init__(
        self,
        work: Path,
        keys: Keys,
        macs: list[str] | tuple[str, ...] | str,
        *,
        name: str | None = None,
        binary: str = SSHD,
        sshd_session: str | None = None,
        sshd_auth: str | None = None,
        cipher: str = CIPHER,
        rekey_limit: str | None = REKEY_LIMIT,
        options: tuple[str, ...] = (),
    ) -> None:
        self.work = Path(work).resolve()
        self.keys = keys
        self.macs = (macs,) if isinstance(macs, str) else tuple(macs)
        self.name = name or "-".join(self.macs).replace("@", "_at_")
        self.binary = str(Path(binary).resolve())
        self.sshd_session = str(Path(sshd_session).resolve()) if sshd_session else None
        self.sshd_auth = str(Path(sshd_auth).resolve()) if sshd_auth else None
        self.cipher = cipher
        self.rekey_limit = rekey_limit
        self.options = tuple(options)
        self.config_path = self.work / f"sshd-{self.name}.conf"
        self.log = self.work / f"sshd-{self.name}.log"
        self.process: subprocess.Popen | None = None
        self.reservation: socket.socket | None = None
        self.port = 0

    @property
    def mac(self) -> str:
        """The one MAC this server offers (a server offering several has no
        single one)."""
        if len(self.macs) != 1:
            raise ValueError(f"this sshd offers {len(self.macs)} MACs: {', '.join(self.macs)}")
        return self.macs[0]

    def config(self) -> str:
        lines = [
            f"Port {self.port}",
            "ListenAddress 127.0.0.1",
            f"HostKey {self.keys.host}",
            f"PidFile {self.work / ('sshd-' + self.name + '.pid')}",
            f"AuthorizedKeysFile {self.keys.authorized}",
            "StrictModes no",
            "UsePAM no",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            f"AllowUsers {getpass.getuser()}",
            f"Ciphers {self.cipher}",
            f"MACs {','.join(self.macs)}",
            "LogLevel DEBUG1",
            "UseDNS no",
            "PrintMotd no",
            "PrintLastLog no",
            "MaxStartups 10:30:20",
        ]
        if self.rekey_limit is not None:
            lines.append(f"RekeyLimit {self.rekey_limit}")
        if self.sshd_session is not None:
            lines.append(f"SshdSessionPath {self.sshd_session}")
        if self.sshd_auth is not None:
            lines.append(f"SshdAuthPath {self.sshd_auth}")
        lines.extend(self.options)
        return "\n".join(lines) + "\n"

    def __enter__(self) -> "Sshd":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> "Sshd":
        if os.geteuid() == 0:
            # The privilege separation directory, which Debian's service
            # unit creates and a test does not run.
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        self.work.mkdir(parents=True, exist_ok=True)
        self.reservation = reserve_port()
        self.port = self.reservation.getsockname()[1]
        self.config_path.write_text(self.config())
        checked = subprocess.run(
            [self.binary, "-t", "-f", str(self.config_path)], capture_output=True, text=True, timeout=30
        )
        if checked.returncode != 0:
            self.stop()
            raise RuntimeError(f"{self.binary} -t rejected {self.config_path}:\n{checked.stderr}")
        self.log.write_text("")
        self.process = subprocess.Popen(
            [self.binary, "-D", "-f", str(self.config_path), "-E", str(self.log)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if self.wait_for_log(f"Server listening on 127.0.0.1 port {self.port}.", START_TIMEOUT_S):
            return self
        exited = self.process.poll()
        self.stop()
        why = f"it exited with status {exited}" if exited is not None else f"no listening line in {START_TIMEOUT_S} s"
        raise RuntimeError(
            f"{self.binary} did not come up on 127.0.0.1 port {self.port} (held for it since the kernel chose it): "
            f"{why}; log {self.log}:\n{self.log_text()}"
        )

    def stop(self) -> None:
        """The listener, then the per-connection processes it had forked
        (each gone when this returns), then the port's reservation."""
        if self.process is not None:
            children = descendants(self.process.pid)
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(timeout=STOP_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(timeout=STOP_TIMEOUT_S)
            end_processes(children)
            self.process = None
        if self.reservation is not None:
            self.reservation.close()
            self.reservation = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def log_size(self) -> int:
        """An offset for `log_since`: what the log holds now."""
        return len(self.log_text())

    def log_since(self, offset: int) -> str:
        return self.log_text()[offset:]

    def wait_for_log(self, needle: str, timeout: float) -> bool:
        """Whether `needle` appears in the log within `timeout` seconds (or
        by the time the server exits)."""
        return self.wait_until(lambda log: needle in log, timeout)

    def wait_for_kex(self, at_least: int, offset: int = 0, timeout: float = 20) -> list[Kex]:
        """The key exchanges the log shows since `offset`, once at least
        `at_least` of them are there or `timeout` seconds passed (the
        per-connection process writes them: they may trail the client)."""
        self.wait_until(lambda log: kex_count(log) >= at_least, timeout, offset)
        return key_exchanges(self.log_since(offset))

    def wait_until(self, holds: Callable[[str], bool], timeout: float, offset: int = 0) -> bool:
        """Whether `holds(the log since offset)` is true within `timeout`
        seconds, asked again at each write to the log; false as soon as the
        server has exited without it."""
        listener = self.process.pid if self.process is not None else None
        return wait_for_text(self.log, lambda text: holds(text[offset:]), timeout, writer=listener)


def ssh_command(
    ssh: str,
    port: int,
    keys: Keys,
    mac: str,
    remote: str | list[str],
    *,
    cipher: str = CIPHER,
    rekey_limit: str | None = REKEY_LIMIT,
    log: Path | None = None,
) -> list[str]:
    """The OpenSSH client's argv to 127.0.0.1:`port` with the test's key,
    offering exactly `cipher` and `mac`, checking the harness's host key,
    at debug level 1 (the kex lines): into `log` when given, else on
    stderr."""
    argv = [ssh, "-F", "/dev/null", "-v"]
    if log is not None:
        Path(log).write_text("")
        argv += ["-E", str(log)]
    argv += [
        "-p", str(port),
        "-i", str(keys.client),
        "-o", "IdentitiesOnly=yes",
        "-o", "BatchMode=yes",
        "-o", f"HostKeyAlias={HOST_KEY_ALIAS}",
        "-o", f"UserKnownHostsFile={keys.known_hosts}",
        "-o", "StrictHostKeyChecking=yes",
        "-o", "ConnectTimeout=20",
        "-o", f"Ciphers={cipher}",
        "-o", f"MACs={mac}",
    ]  # fmt: skip
    if rekey_limit is not None:
        argv += ["-o", f"RekeyLimit={rekey_limit}"]
    argv.append(f"{getpass.getuser()}@127.0.0.1")
    argv += [remote] if isinstance(remote, str) else remote
    return argv


def run_ssh(
    port: int,
    keys: Keys,
    mac: str,
    remote: str | list[str],
    stdin: bytes = b"",
    *,
    ssh: str = SSH,
    timeout: float = 120,
    cipher: str = CIPHER,
    rekey_limit: str | None = REKEY_LIMIT,
) -> subprocess.CompletedProcess:
    """Runs `ssh_command(...)` with `stdin`, bounded by `timeout` seconds;
    the result's stderr holds the client's debug log."""
    argv = ssh_command(ssh, port, keys, mac, remote, cipher=cipher, rekey_limit=rekey_limit)
    return subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout)


def leftover_servers(under: Path) -> list[tuple[int, list[str]]]:
    """Every running sshd started with a harness config (`sshd-*.conf`) in
    the folder `under` or below it: what a test run must not leave (other
    runs on the machine have their own folders)."""
    prefix = str(Path(under).resolve()) + os.sep
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = [a.decode(errors="replace") for a in (entry / "cmdline").read_bytes().split(b"\0") if a]
        except OSError:
            continue
        try:
            config = argv[argv.index("-f") + 1]
        except (ValueError, IndexError):
            continue
        if config.startswith(prefix) and re.search(r"/sshd-[^/]*\.conf$", config):
            found.append((int(entry.name), argv))
    return found


# --- the script, for Go and any other language ---------------------------


def _serve(args: argparse.Namespace) -> int:
    """Starts the server, prints its JSON line, and stops it when standard
    input closes (the caller exited or closed the pipe) or on SIGTERM."""
    work = Path(args.work).resolve()
    keys = make_keys(Path(args.keys).resolve() if args.keys else work)
    server = Sshd(
        work,
        keys,
        args.mac,
        name=args.name,
        binary=args.sshd,
        sshd_session=args.sshd_session,
        sshd_auth=args.sshd_auth,
        cipher=args.cipher,
        rekey_limit=None if args.rekey_limit == "none" else args.rekey_limit,
        options=tuple(args.option),
    )
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    with server:
        print(json.dumps({
            "port": server.port,
            "pid": server.process.pid if server.process else 0,
            "log": str(server.log),
            "config": str(server.config_path),
            "keys": keys.as_json(),
        }), flush=True)  # fmt: skip

        def wait_for_eof() -> None:
            sys.stdin.buffer.read()
            done.set()

        threading.Thread(target=wait_for_eof, daemon=True).start()
        while not done.wait(0.2):
            pass
    return 0


def _client_argv(args: argparse.Namespace) -> int:
    keys = make_keys(Path(args.keys))
    remote = args.remote[1:] if args.remote[:1] == ["--"] else args.remote
    print(json.dumps(ssh_command(
        args.ssh, args.port, keys, args.mac, remote, cipher=args.cipher,
        rekey_limit=None if args.rekey_limit == "none" else args.rekey_limit,
        log=Path(args.log) if args.log else None,
    )))  # fmt: skip
    return 0


def _negotiated(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.log == "-" else Path(args.log).read_text(errors="replace")
    print(json.dumps({"key_exchanges": kex_count(text), "kex": [list(k) for k in key_exchanges(text)]}))
    return 0


def _wait(args: argparse.Namespace) -> int:
    """Waits as `Sshd.wait_until` does, on a log named by path: for a line
    that contains `--line`, or for `--kex` key exchanges."""

    def holds(text: str) -> bool:
        return args.line in text if args.line is not None else kex_count(text) >= args.kex

    found = wait_for_text(Path(args.log), holds, args.timeout, writer=args.pid)
    print(json.dumps({"found": found}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    keys = commands.add_parser("keys", help="make (or keep) the keys in DIR; print their paths")
    keys.add_argument("dir")
    keys.set_defaults(run=lambda a: print(json.dumps(make_keys(Path(a.dir)).as_json())) or 0)

    serve = commands.add_parser("serve", help="run one sshd until stdin closes")
    serve.add_argument("--work", required=True, help="config, log and PID file (and keys, without --keys)")
    serve.add_argument("--keys", help="the keys' folder (made when missing); default: --work")
    serve.add_argument("--mac", action="append", required=True)
    serve.add_argument("--name")
    serve.add_argument("--cipher", default=CIPHER)
    serve.add_argument("--rekey-limit", default=REKEY_LIMIT, help="'none' for no RekeyLimit line")
    serve.add_argument("--sshd", default=SSHD)
    serve.add_argument("--sshd-session", help="SshdSessionPath (OpenSSH >= 9.8)")
    serve.add_argument("--sshd-auth", help="SshdAuthPath (OpenSSH >= 10)")
    serve.add_argument("--option", action="append", default=[], help="one more sshd_config line")
    serve.set_defaults(run=_serve)

    client = commands.add_parser("client-argv", help="print the ssh client's argv as JSON")
    client.add_argument("--keys", required=True)
    client.add_argument("--port", type=int, required=True)
    client.add_argument("--mac", required=True)
    client.add_argument("--ssh", default=SSH)
    client.add_argument("--cipher", default=CIPHER)
    client.add_argument("--rekey-limit", default=REKEY_LIMIT, help="'none' for no RekeyLimit option")
    client.add_argument("--log")
    client.add_argument("remote", nargs=argparse.REMAINDER)
    client.set_defaults(run=_client_argv)

    negotiated = commands.add_parser("negotiated", help="the key exchanges of a log ('-': stdin)")
    negotiated.add_argument("log")
    negotiated.set_defaults(run=_negotiated)

    wait = commands.add_parser("wait", help="wait for a line or key exchanges in a log; print whether they came")
    wait.add_argument("--log", required=True)
    wait.add_argument("--timeout", type=float, required=True, help="seconds")
    wait.add_argument("--pid", type=int, help="the server's PID: stop waiting once it has exited")
    what = wait.add_mutually_exclusive_group(required=True)
    what.add_argument("--line", help="text a line of the log contains")
    what.add_argument("--kex", type=int, help="at least this many key exchanges")
    wait.set_defaults(run=_wait)

    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
