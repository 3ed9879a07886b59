"""`make test` and `make run` on a bare machine: devstack.local starts PostgreSQL and Redis of its own from the
wheels, hands their URLs to the command, and stops them (no process, no folder left) however the command ends;
URLs given in the environment win. Each test runs the real wrapper in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psycopg
import pytest

from devstack.embedded import EmbeddedPostgres

ROOT = Path(__file__).resolve().parents[1]

# What the wrapped command reports: the URLs it was given, the servers' PIDs, and proof that both answer.
REPORT = textwrap.dedent(
    """
    import json, os, sys, tempfile, time
    import psycopg, redis
    url, redis_url = os.environ["DATABASE_URL"], os.environ["REDIS_URL"]
    with psycopg.connect(url) as conn:
        data = conn.execute("SHOW data_directory").fetchone()[0]
    redis.Redis.from_url(redis_url).set("probe", "1")
    print(json.dumps({
        "database_url": url, "redis_url": redis_url, "data": data,
        "postgres_pid": os.environ.get("CATAN_EMBEDDED_POSTGRES_PID"),
        "redis_pid": os.environ.get("CATAN_EMBEDDED_REDIS_PID"),
        "tmpdir": tempfile.gettempdir(),
    }), flush=True)
    time.sleep(float(sys.argv[1]))
    """
)


def _bare_env(**extra: str) -> dict[str, str]:
    # This suite itself runs under the wrapper: what it was given is not what a bare machine has.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL") and not k.startswith("CATAN_EMBEDDED_")
    }
    env.update(extra)
    return env


def _start(env: dict[str, str], sleep: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "devstack.local", "test", "--", sys.executable, "-c", REPORT, str(sleep)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal gives a command
        preexec_fn=_as_in_a_terminal,
    )


def _as_in_a_terminal() -> None:
    """A command typed in a terminal takes Ctrl-C. The suite itself may run with SIGINT ignored (started in the
    background by a non-interactive shell, as CI scripts do), and an ignored signal stays ignored across exec: the
    wrapper and its command would never see the Ctrl-C this test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _report(wrapper: subprocess.Popen) -> dict:
    line = wrapper.stdout.readline()
    assert line, wrapper.stderr.read()
    return json.loads(line)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie has exited: it only waits for its parent to read its status.
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "State:\tZ" not in status.read_text()


def _gone(pids: list[int], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


def _folder_of(report: dict) -> Path:
    """The throwaway folder: pgdata lies in <folder>/postgres/pgdata."""
    return Path(report["data"]).parents[1]


def test_without_urls_it_starts_both_servers_on_free_ports_and_removes_everything_after():
    wrapper = _start(_bare_env(), sleep=0)
    report = _report(wrapper)
    assert wrapper.wait(timeout=60) == 0
    pids = [int(report["postgres_pid"]), int(report["redis_pid"])]
    assert report["database_url"].startswith("postgres://postgres@127.0.0.1:")
    assert not report["database_url"].startswith("postgres://postgres@127.0.0.1:5432/")
    assert report["redis_url"].startswith("redis://127.0.0.1:") and ":6379/" not in report["redis_url"]
    assert _gone(pids), "an embedded server outlived the command"
    assert not _folder_of(report).exists(), "the throwaway folder was left behind"
    assert report["tmpdir"].startswith(str(_folder_of(report))), "the command's temporary files lie elsewhere"


def test_the_command_exit_status_is_passed_on():
    done = subprocess.run(
        [sys.executable, "-m", "devstack.local", "test", "--", sys.executable, "-c", "raise SystemExit(7)"],
        cwd=ROOT,
        env=_bare_env(),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 7


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_wrapper_stops_the_command_and_the_servers(sig):
    wrapper = _start(_bare_env(), sleep=120)
    report = _report(wrapper)
    pids = [int(report["postgres_pid"]), int(report["redis_pid"])]
    assert all(_alive(pid) for pid in pids)
    if sig == signal.SIGINT:
        os.killpg(wrapper.pid, sig)  # a Ctrl-C in a terminal reaches the whole foreground process group
    else:
        wrapper.send_signal(sig)  # a process manager stops the wrapper alone
    wrapper.wait(timeout=60)
    assert _gone(pids)
    assert not _folder_of(report).exists()


def test_a_wrapper_killed_outright_takes_its_servers_with_it():
    wrapper = _start(_bare_env(), sleep=120)
    report = _report(wrapper)
    pids = [int(report["postgres_pid"]), int(report["redis_pid"])]
    wrapper.kill()
    wrapper.wait(timeout=10)
    try:
        assert _gone(pids), "the servers did not follow their parent"
    finally:
        # The one case the wrapper cannot clean up after: a SIGKILL gives it no chance.
        shutil.rmtree(_folder_of(report), ignore_errors=True)


def test_given_urls_win_and_nothing_is_started(redis_url, postgres):
    db = postgres.settings_dict
    given = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    wrapper = _start(_bare_env(DATABASE_URL=given, REDIS_URL=redis_url), sleep=0)
    report = _report(wrapper)
    assert wrapper.wait(timeout=60) == 0
    assert report["database_url"] == given and report["redis_url"] == redis_url
    assert report["postgres_pid"] is None and report["redis_pid"] is None
    assert "none started" in wrapper.stderr.read()


def test_a_deep_folder_is_no_obstacle(server_folder):
    """A Unix socket's path may not exceed 107 bytes: the servers listen on TCP only, wherever their folder is
    (a clone in a deep folder; pytest's own temporary folders under xdist)."""
    deep = server_folder / ("a-rather-long-folder-name-" * 4) / "local" / "postgres"
    server = EmbeddedPostgres(deep, durable=False)
    try:
        server.start()
        with psycopg.connect(f"{server.url}/postgres") as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.stop()
