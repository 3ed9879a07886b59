"""The fleet's kept components from Debian, started on this machine for `make fleet` and the fleet's tests:
PgBouncer (transaction pooling in front of PostgreSQL) and HAProxy (the load balancer in front of the web nodes,
WebSockets included). Each runs in the foreground under our process, its configuration written into a folder of
its own, stopped by PID. Without the packages, `missing_packages` names the apt-get line.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
from pathlib import Path

from devstack.embedded import ServiceError, _open_to, _postgres_system_user, _Server

PGBOUNCER = "/usr/sbin/pgbouncer"
HAPROXY = "/usr/sbin/haproxy"
APT_LINE = "apt-get install -y haproxy pgbouncer"


def missing_packages() -> list[str]:
    """The Debian packages the fleet needs and this machine lacks."""
    return [name for name, path in (("haproxy", HAPROXY), ("pgbouncer", PGBOUNCER)) if not shutil.which(path)]


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class PgBouncer(_Server):
    """PgBouncer in transaction mode on 127.0.0.1:port, in front of the PostgreSQL at `postgres_port`: every
    database name goes to the same-named database there, as `postgres` (the embedded server's trust auth)."""

    name = "pgbouncer"
    stop_signal = signal.SIGINT  # PgBouncer's "safe shutdown": wait for the transactions in flight

    def __init__(self, folder: Path, postgres_port: int, port: int | None = None, pool_size: int = 20) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder, port)
        self.postgres_port = postgres_port
        self.pool_size = pool_size
        self.config = folder / "pgbouncer.ini"

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 20.0) -> None:
        user = _postgres_system_user()  # PgBouncer, too, refuses to run as root
        self.config.write_text(
            "\n".join(
                [
                    "[databases]",
                    f"* = host=127.0.0.1 port={self.postgres_port} user=postgres",
                    "[pgbouncer]",
                    "listen_addr = 127.0.0.1",
                    f"listen_port = {self.port}",
                    "unix_socket_dir =",
                    "auth_type = any",
                    "pool_mode = transaction",
                    f"default_pool_size = {self.pool_size}",
                    "max_client_conn = 5000",
                    "ignore_startup_parameters = extra_float_digits,options",
                    "server_reset_query =",
                    "",
                ]
            )
        )
        if user is not None:
            _open_to(user, self.folder)
            os.chown(self.config, *_ids(user))
        self._spawn([PGBOUNCER, str(self.config)], user=user)
        self._wait_ready(lambda: _answers(self.port), timeout)


def _ids(user: str) -> tuple[int, int]:
    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid


class HAProxy(_Server):
    """HAProxy on 127.0.0.1:port in front of web nodes, each checked every `check_ms` on /healthz/ready (a
    draining node gets no one new): HTTP by least connections, a game's WebSockets by its path on a consistent
    hash ring (one node per game). Its admin socket (`runtime`) takes the servers' weights and states."""

    name = "haproxy"
    stop_signal = signal.SIGUSR1  # soft stop: stop listening, let the connections finish

    def __init__(
        self, folder: Path, backends: list[int], port: int | None = None, check_ms: int = 500, check_path: str = ""
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder, port)
        self.backends = backends
        self.check_ms = check_ms
        self.check_path = check_path or "/healthz/ready"  # bench/fleet.py's A side: an older site's /healthz
        self.config = folder / "haproxy.cfg"
        self.runtime = folder / "admin.sock"

    def start(self, timeout: float = 20.0) -> None:
        servers = [
            f"    server web{i + 1} 127.0.0.1:{port} check inter {self.check_ms} fall 1 rise 2"
            for i, port in enumerate(self.backends)
        ]
        # A game's sockets to one node: its path (/ws/games/<id>/) hashed on a consistent ring. Each move's group
        # message is then decoded by one node, not by every node one of its seats landed on (bench/fleet.py:
        # 1.29 → 1.61 ms of web CPU per move from 1 to 3 nodes with least-connections for sockets too). A
        # drained node's games move to the others; the rest stay where they are.
        self.config.write_text(
            "\n".join(
                [
                    "global",
                    f"    stats socket {self.runtime} mode 600 level admin",
                    "    maxconn 8000",  # two descriptors each: within a default limit of 20,000
                    "defaults",
                    "    mode http",
                    "    timeout connect 2s",
                    "    timeout client 60s",
                    "    timeout server 60s",
                    "    timeout tunnel 1h",  # a game's socket lives as long as the page
                    "    option forwardfor",
                    "    retries 2",
                    "    option redispatch",
                    "frontend site",
                    f"    bind 127.0.0.1:{self.port}",
                    # Each request's id, set here whatever the client sent: the nodes log it (infra/logs.py).
                    "    unique-id-format %[uuid()]",
                    "    http-request set-header X-Request-ID %[unique-id]",
                    "    use_backend sockets if { path_beg /ws/games/ }",
                    "    default_backend web",
                    "backend web",
                    "    balance leastconn",
                    "    option httpchk",
                    f"    http-check send meth GET uri {self.check_path} ver HTTP/1.1 hdr Host 127.0.0.1",
                    "    http-check expect status 200",
                    *servers,
                    "backend sockets",
                    "    balance uri",
                    "    hash-type consistent",
                    "    option httpchk",
                    f"    http-check send meth GET uri {self.check_path} ver HTTP/1.1 hdr Host 127.0.0.1",
                    "    http-check expect status 200",
                    *servers,
                    "",
                ]
            )
        )
        self._spawn([HAPROXY, "-c", "-q", "-f", str(self.config)])
        if self.process is not None and self.process.wait(10) != 0:
            raise ServiceError(f"haproxy refused its configuration:\n{self.log.read_text(errors='replace')}")
        self._spawn([HAPROXY, "-db", "-f", str(self.config)])
        self._wait_ready(lambda: _answers(self.port), timeout)
