"""`make fleet`: the deployed topology on one machine, on the same embedded PostgreSQL and Redis as `make run`.

    make fleet WEB=3 WORKERS=2 PORT=8000

- HAProxy on PORT balancing new connections (HTTP and WebSocket) over WEB uvicorn web nodes by least
  connections, each checked on /healthz/ready (a draining node gets no one new);
- PgBouncer in transaction mode in front of PostgreSQL (the move path finds it and prepares nothing);
- Redis by role: the channel layer sharded over two servers (channels_redis's own sharding), one for the Celery
  broker, one for the cache;
- WORKERS Celery workers, one beat (a second one would stand by: the lease, infra/beat_lease.py), the inbound
  mail handler and the mail catcher, under honcho like `make run`.

Ctrl-C stops everything and removes the folder (a temporary one). Without the Debian packages it names the
apt-get line and stops. `python -m devstack.fleet restart` from another terminal restarts the web nodes one at a
time (SIGTERM: each drains, its tables move to the others; then it starts again).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from devstack.embedded import EmbeddedPostgres, EmbeddedRedis, ServiceError, free_port
from devstack.local import DATABASE_NAME, run_command
from devstack.proxies import APT_LINE, HAProxy, PgBouncer, missing_packages
from devstack.stack import _prepare, port_taken, stack_env

ROOT = Path(__file__).resolve().parent.parent
# Where a running fleet writes its web nodes' PIDs, for `restart` from another terminal.
STATE_FILE = Path(tempfile.gettempdir()) / "catan-fleet.pids"


def say(message: str) -> None:
    print(f"[make fleet] {message}", file=sys.stderr, flush=True)


class Fleet:
    """The fleet's servers (PostgreSQL, four Redis, PgBouncer, HAProxy) in `folder`, and the environment its
    processes run with."""

    def __init__(self, folder: Path, *, web: int, port: int, drain_seconds: float = 1.0, check_path: str = "") -> None:
        self.folder = folder
        self.check_path = check_path
        self.web_ports = [free_port() for _ in range(web)]
        self.port = port
        self.drain_seconds = drain_seconds
        self.postgres = EmbeddedPostgres(folder / "postgres", durable=False)
        self.redis = {role: EmbeddedRedis(folder / f"redis-{role}") for role in ("layer1", "layer2", "broker", "cache")}
        self.pgbouncer: PgBouncer | None = None
        self.haproxy: HAProxy | None = None

    def start(self) -> None:
        self.postgres.start()
        self.postgres.create_database(DATABASE_NAME)
        say(f"PostgreSQL on 127.0.0.1:{self.postgres.port}")
        for role, server in self.redis.items():
            server.start()
            say(f"Redis ({role}) on 127.0.0.1:{server.port}")
        self.pgbouncer = PgBouncer(self.folder / "pgbouncer", self.postgres.port)
        self.pgbouncer.start()
        say(f"PgBouncer (transaction mode) on 127.0.0.1:{self.pgbouncer.port}")
        self.haproxy = HAProxy(self.folder / "haproxy", self.web_ports, port=self.port, check_path=self.check_path)
        self.haproxy.start()
        say(f"HAProxy on 127.0.0.1:{self.port} over web nodes on {', '.join(map(str, self.web_ports))}")

    def stop(self) -> None:
        for server in (self.haproxy, self.pgbouncer, *self.redis.values(), self.postgres):
            if server is not None:
                server.stop()

    def env(self, base: Mapping[str, str]) -> dict[str, str]:
        """What every process of the fleet runs with: the database through PgBouncer, Redis by role."""
        layer = [f"{self.redis[r].url}/0" for r in ("layer1", "layer2")]
        assert self.pgbouncer is not None
        return {
            **base,
            "DATABASE_URL": self.pgbouncer.url(DATABASE_NAME),
            "DB_CONN_MAX_AGE": "60",
            "REDIS_URL": f"{self.redis['cache'].url}/0",
            "CACHE_REDIS_URL": f"{self.redis['cache'].url}/0",
            "CELERY_BROKER_URL": f"{self.redis['broker'].url}/0",
            "CHANNEL_LAYER_URLS": ",".join(layer),
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
            "TRUST_REQUEST_ID_HEADER": "true",  # HAProxy sets X-Request-ID on every request
            "DRAIN_SECONDS": str(self.drain_seconds),
        }

    def procfile(self, workers: int) -> Path:
        """The fleet's Procfile: the web nodes, the workers, one beat, the mail handlers."""
        lines = [
            f"web{i + 1}: python -m devstack.fleet node -- python -m catan_site.serve --host 127.0.0.1 --port {port}"
            " --no-access-log"
            for i, port in enumerate(self.web_ports)
        ]
        lines += [
            f"worker{i + 1}: celery -A catan_site worker --queues celery,bots --concurrency 2 --loglevel INFO "
            f"--without-gossip --without-mingle --hostname worker{i + 1}@%h"
            for i in range(workers)
        ]
        lines += [
            "beat: celery -A catan_site beat --loglevel INFO --schedule ${LOCAL_FOLDER}/celerybeat-schedule",
            "inbound: python manage.py mail_inbound --host 127.0.0.1 --port ${INBOUND_SMTP_PORT}",
            "mail: python -m devstack.mailcatcher ${MAIL_SMTP_PORT} ${LOCAL_MAILBOX_DIR}",
        ]
        path = self.folder / "Procfile"
        path.write_text("\n".join(lines) + "\n")
        return path


def web_pids() -> list[int]:
    """The web nodes of the running fleet, by PID (uvicorn processes found by their command line and port)."""
    if not STATE_FILE.exists():
        return []
    ports = STATE_FILE.read_text().split()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        # The server itself, not its `node` supervisor (whose command line holds the server's).
        if b"catan_site.serve" in argv and b"devstack.fleet" not in argv and any(p.encode() in argv for p in ports):
            found.append(int(entry.name))
    return sorted(found)


def rolling_restart(pause: float = 3.0) -> int:
    """SIGTERM each web node in turn: it drains (its tables move to the others) and its `node` supervisor starts
    it again, as an orchestrator's rolling update does. Returns how many nodes were told."""
    pids = web_pids()
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:  # gone meanwhile: its supervisor starts it again
            continue
        time.sleep(pause)
    return len(pids)


def supervise(argv: list[str]) -> int:
    """Run `argv` (a web node), starting it again whenever it exits (a drain, a crash), until we are told to stop:
    then pass the signal on and wait for it. honcho stops the whole fleet when one of its processes ends; this
    keeps a restarted node's line alive."""
    stopping = False
    child: subprocess.Popen | None = None

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        child = subprocess.Popen(argv)
        child.wait()
        if not stopping:
            say(f"web node {child.pid} ended ({child.returncode}): starting it again")
            time.sleep(0.2)
    return 0


def _announce(url: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/healthz/ready", timeout=2) as response:
                if response.status == 200:
                    say(f"ready: Catan through the load balancer on {url}/  (demo / demo; admin / admin)")
                    say("Ctrl-C stops everything")
                    return
        except OSError:
            pass
        time.sleep(0.5)
    say(f"the load balancer found no ready web node on {url} within 90 s: see the web lines above")


def run(web: int, workers: int, port: int, host: str = "127.0.0.1") -> int:
    missing = missing_packages()
    if missing:
        say(f"the fleet needs Debian's {' and '.join(missing)}: {APT_LINE}")
        return 2
    if port_taken(host, port):
        say(f"port {port} is taken: choose another: make fleet PORT=8001")
        return 2
    folder = Path(tempfile.mkdtemp(prefix="catan-fleet-"))
    fleet = Fleet(folder, web=web, port=port)
    try:
        fleet.start()
        # Migrations and the demo go straight to PostgreSQL; everything else through PgBouncer.
        direct = {**os.environ, "DATABASE_URL": f"{fleet.postgres.url}/{DATABASE_NAME}"}
        base = stack_env(direct, host=host, port=port, folder=folder)
        say("migrating and creating the demo accounts and games")
        _prepare({**base, "REDIS_URL": f"{fleet.redis['cache'].url}/0"})
        env = fleet.env(base)
        STATE_FILE.write_text(" ".join(map(str, fleet.web_ports)))
        url = f"http://{host}:{port}"
        threading.Thread(target=_announce, args=(url, time.monotonic() + 90), daemon=True).start()
        procfile = fleet.procfile(workers)
        return run_command([sys.executable, "-m", "honcho", "start", "-f", str(procfile), "-d", str(ROOT)], env)
    except ServiceError as error:
        say(str(error))
        return 3
    except KeyboardInterrupt:
        return 130
    finally:
        STATE_FILE.unlink(missing_ok=True)
        fleet.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    start = sub.add_parser("run", help="the whole fleet on this machine")
    start.add_argument("--web", type=int, default=int(os.environ.get("WEB", "3")))
    start.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "2")))
    start.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    sub.add_parser("restart", help="drain the running fleet's web nodes one at a time (SIGTERM)")
    node = sub.add_parser("node", help="run a web node, starting it again whenever it ends")
    node.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.mode == "node":
        return supervise(args.command[1:] if args.command[:1] == ["--"] else args.command)
    if args.mode == "restart":
        told = rolling_restart()
        say(f"{told} web node(s) told to drain" if told else "no fleet is running")
        return 0 if told else 1
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    return run(args.web, args.workers, args.port)


if __name__ == "__main__":
    sys.exit(main())
