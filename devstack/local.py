"""Run a command on PostgreSQL and Redis of its own when none is given: what `make test` and `make run` call.

    python -m devstack.local test -- python -m pytest      # throwaway servers in a temporary folder
    python -m devstack.local run [--port 8000]              # the whole site (devstack/stack.py)

`DATABASE_URL` and `REDIS_URL`, when set, win: that service is not started. Otherwise each is started on a free
port of 127.0.0.1 (devstack/embedded.py), the command runs with the URLs in its environment, and when it ends
(or on Ctrl-C, SIGTERM, or a failure) the servers are stopped and, for `test`, their folder removed. A server
already running on the machine is never touched: ours get ports the system says are free.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import environ

from devstack.embedded import EmbeddedPostgres, EmbeddedRedis, ServiceError
from devstack.stack import port_taken, run_stack

ROOT = Path(__file__).resolve().parent.parent
# make run keeps its servers' data here (gitignored with the virtualenv), so the demo games survive a restart.
RUN_FOLDER = ROOT / ".venv" / "local"
DATABASE_NAME = "catan"


def say(message: str) -> None:
    print(f"[local] {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def services(folder: Path | None, env: Mapping[str, str] | None = None) -> Iterator[dict[str, str]]:
    """The environment with DATABASE_URL and REDIS_URL set: those given in `env` (default os.environ) are kept;
    the missing ones are started in `folder` (None: a temporary folder, removed afterwards) and stopped on exit."""
    env = dict(os.environ if env is None else env)
    throwaway = folder is None
    base = Path(tempfile.mkdtemp(prefix="catan-services-")) if throwaway else folder
    started: list[EmbeddedPostgres | EmbeddedRedis] = []
    wanted = (
        ("DATABASE_URL", "PostgreSQL", EmbeddedPostgres, f"/{DATABASE_NAME}"),
        ("REDIS_URL", "Redis", EmbeddedRedis, "/0"),
    )
    try:
        for variable, name, kind, path in wanted:
            if env.get(variable):
                say(f"{name}: {variable} given, none started")
                continue
            server = kind(base / kind.name, durable=not throwaway)
            server.start()
            started.append(server)
            if isinstance(server, EmbeddedPostgres):
                server.create_database(DATABASE_NAME)
            env[variable] = f"{server.url}{path}"
            env[f"CATAN_EMBEDDED_{kind.name.upper()}_PID"] = str(server.pid)
            say(f"{name} (embedded) on 127.0.0.1:{server.port}, data in {server.folder}")
        # Prometheus multiprocess files (infra/metrics.py): every process of the run writes here; emptied at the
        # start (a stopped run's counts are not this run's) and removed at the end.
        metrics_dir = base / "metrics"
        shutil.rmtree(metrics_dir, ignore_errors=True)
        metrics_dir.mkdir(parents=True)
        env.setdefault("PROMETHEUS_MULTIPROC_DIR", str(metrics_dir))
        if throwaway:
            # The command's own temporary files (a test's mail catcher, beat schedule, browser profile) go inside
            # the throwaway folder too, and leave with it.
            scratch = base / "tmp"
            scratch.mkdir()
            env["TMPDIR"] = str(scratch)
        yield env
    finally:
        for server in reversed(started):
            server.stop()
        shutil.rmtree(base / "metrics", ignore_errors=True)
        if throwaway:
            shutil.rmtree(base, ignore_errors=True)


def run_command(argv: list[str], env: Mapping[str, str]) -> int:
    """Run argv to its end. A Ctrl-C reaches it from the terminal (same process group) and we wait for it to stop;
    a SIGTERM sent to us is passed on."""
    child = subprocess.Popen(argv, env=dict(env))

    def pass_on(signum: int, frame: object) -> None:
        if child.poll() is None:
            child.send_signal(signum)

    previous = signal.signal(signal.SIGTERM, pass_on)
    try:
        while True:
            try:
                return child.wait()
            except KeyboardInterrupt:
                continue  # the child got the same Ctrl-C: let it finish its own cleanup
    finally:
        signal.signal(signal.SIGTERM, previous)
        if child.poll() is None:
            child.kill()
            child.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    test = sub.add_parser("test", help="run a command on throwaway servers")
    test.add_argument("command", nargs=argparse.REMAINDER)
    run = sub.add_parser("run", help="the whole site: web, worker, beat, mail")
    run.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    run.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    run.add_argument("--folder", type=Path, default=RUN_FOLDER)
    args = parser.parse_args(argv)
    if (ROOT / ".env").exists():  # the site reads .env too: a DATABASE_URL / REDIS_URL there wins as well
        environ.Env.read_env(ROOT / ".env", overwrite=False)
    # SIGTERM before the command starts (while the servers start) must still stop them: make it an exception.
    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        if args.mode == "test":
            command = args.command[1:] if args.command[:1] == ["--"] else args.command
            if not command:
                parser.error("test: give the command to run after --")
            with services(None) as env:
                return run_command(command, env)
        if port_taken(args.host, args.port):
            say(f"port {args.port} on {args.host} is taken (another make run?): choose another: make run PORT=8001")
            return 2
        with services(args.folder) as env:
            env.setdefault("LOG_FORMAT", "console")  # a person reads these lines; production ships JSON (infra/logs.py)
            return run_stack(env, host=args.host, port=args.port, folder=args.folder, run_command=run_command)
    except ServiceError as error:
        say(str(error))
        return 3
    except KeyboardInterrupt:
        return 130


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
