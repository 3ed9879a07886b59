"""`make run` is the deployed system, small: on PostgreSQL and Redis of its own, the web server, a Celery worker,
beat, the inbound mail handler and a mail catcher. The demo's email game is seen to mail its player, remind them
and play the timeout policy when the clock runs out; the mail is readable on the local mailbox page; Ctrl-C
stops every process it started, and a second start finds the same games (data kept in its folder)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest

from devstack.embedded import free_port

ROOT = Path(__file__).resolve().parents[1]


def _processes_under(folder: Path) -> list[int]:
    """Live PIDs of the stack: the servers name the folder on their command line, every process honcho started
    has it in its environment (LOCAL_FOLDER)."""
    found = []
    mark = str(folder).encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                seen = (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes()
                state = (entry / "status").read_text()
            except OSError:
                continue
            if mark in seen and "State:\tZ" not in state:
                found.append(int(entry.name))
    return found


class Stack:
    def __init__(self, folder: Path, port: int) -> None:
        # As a newcomer's shell: no service URLs, and the checkout's staticfiles/ (not this test process's own).
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "STATIC_ROOT")}
        env.update(
            SITE_URL="http://127.0.0.1:8000",  # as a .env copied from .env.example says: the port must follow
            DEBUG="false",
            SECRET_KEY="make-run-test-" + "k" * 40,
            SESSION_COOKIE_SECURE="false",
            CSRF_COOKIE_SECURE="false",
            # A clock that runs out within the test: 12 s a move, checked every second.
            ASYNC_MIN_MOVE_SECONDS="12",
            CLOCKS_TICK_SECONDS="1",
        )
        self.port = port
        self.log = folder.parent / f"stack-{port}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "devstack.local", "run", "--port", str(port), "--folder", str(folder)],
            cwd=ROOT,
            env=env,
            stdout=open(self.log, "wb"),  # noqa: SIM115 (closed with the process)
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, as a terminal gives it: Ctrl-C reaches all of it
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()[-3000:]
            if "ready: Catan on" in self.output():
                return
            time.sleep(0.25)
        raise AssertionError(f"not ready in {timeout} s:\n{self.output()[-3000:]}")

    def database_url(self) -> str:
        port = re.search(r"PostgreSQL \(embedded\) on 127\.0\.0\.1:(\d+)", self.output()).group(1)
        return f"postgres://postgres@127.0.0.1:{port}/catan"

    def get(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as response:
            return response.read().decode()

    def interrupt(self) -> int:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout=60)


def _until(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"not within {timeout} s: {what}")


@pytest.mark.timeout(400)
def test_make_run_plays_an_email_game_with_worker_beat_and_mail_then_stops_cleanly(server_folder):
    folder = server_folder / "local"
    stack = Stack(folder, free_port())
    try:
        stack.wait_ready()
        assert '"status": "ok"' in stack.get("/healthz") or "ok" in stack.get("/healthz")
        for name in ("web.1", "worker.1", "beat.1", "inbound.1", "mail.1"):
            assert f"{name} started" in stack.output()
        url = stack.database_url()
        with psycopg.connect(url) as conn:
            game_id, seconds = conn.execute(
                "SELECT id, move_seconds FROM games_game WHERE clock = 'async' AND status = 'active'"
            ).fetchone()
        assert seconds == 12

        def mails(subject_part: str) -> list[str]:
            page = stack.get("/local/mail/?to=demo@example.com")
            return [s for s in re.findall(r"<h2>(.*?)</h2>", page, re.S) if subject_part in s]

        _until(lambda: mails("Your turn"), 30, "the turn mail in the local mailbox")
        # Its links name the port this run serves on (issue 27: with PORT=8920 they said 8000).
        links = re.findall(r'href="(http://[^"/]+)/', stack.get("/local/mail/?to=demo@example.com"))
        assert links and set(links) == {f"http://127.0.0.1:{stack.port}"}, links
        # Beat ticks the clock; the worker plays the timeout policy for demo (a bot's move, cause 'timeout').
        def timed_out() -> bool:
            with psycopg.connect(url) as conn:
                row = conn.execute(
                    "SELECT count(*) FROM games_move WHERE game_id = %s AND cause = 'timeout'", [game_id]
                ).fetchone()
            return row[0] > 0

        _until(timed_out, 90, "the clock to run out and the policy to play")
        assert _until(lambda: mails("reminder") or mails("Reminder") or mails("rappel"), 60, "a reminder mail")
    finally:
        status = stack.interrupt()
    assert status in (0, 130, -signal.SIGINT), stack.output()[-2000:]
    assert _until(lambda: not _processes_under(folder), 20, "every process to stop") is True
    assert (folder / "postgres" / "pgdata" / "PG_VERSION").exists(), "make run keeps its data"

    # A second start finds the same games: nothing created twice.
    again = Stack(folder, free_port())
    try:
        again.wait_ready()
        with psycopg.connect(again.database_url()) as conn:
            count = conn.execute("SELECT count(*) FROM games_game WHERE clock = 'async'").fetchone()[0]
        assert count == 1
    finally:
        again.interrupt()
    assert _until(lambda: not _processes_under(folder), 20, "every process to stop") is True
