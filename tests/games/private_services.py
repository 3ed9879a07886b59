"""Real services of a test's own, started and stopped by PID: a redis-server, an SMTP catcher (aiosmtpd in a
subprocess, see devstack/mailcatcher.py) and a Celery worker with its beat, all on ports no other test
session uses (another session's tasks or mail never reach this one's)."""

from __future__ import annotations

import email
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from email.message import Message
from pathlib import Path

import redis

from devstack.embedded import redis_server_binary
from tests.games.servers import ROOT, free_port, server_env


class PrivateRedis:
    """A redis-server of this test's own on a free port, stopped by PID and started again on the same port."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("private redis did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_connect_timeout=1)


class SmtpCatcher:
    """An SMTP server in a subprocess (stopped by PID, started again on the same port) that keeps each message
    it accepts as a file; `delay` seconds before it answers each message's DATA, as a loaded server does."""

    def __init__(self, port: int | None = None, delay: float = 0.0) -> None:
        self.port = port or free_port()
        self.delay = delay
        self.directory = Path(tempfile.mkdtemp(prefix="smtp-catcher-"))
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "devstack.mailcatcher", str(self.port), str(self.directory), str(self.delay)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.settimeout(2)
                    if s.recv(100).startswith(b"220"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("SMTP catcher did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    @property
    def messages(self) -> list[Message]:
        return [email.message_from_bytes(p.read_bytes()) for p in sorted(self.directory.glob("*.eml"))]

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if address in m["To"]]


class Worker:
    """`celery worker -B` in a subprocess: the real worker and its beat, on the test database and a private
    broker (never a queue another test session consumes)."""

    def __init__(self, broker_url: str, log: Path | None = None, **env: str) -> None:
        self.log = log  # where its log lines go (none: nowhere)
        self.env = server_env(broker_url)
        self.env.update(CELERY_BROKER_URL=broker_url, REDIS_URL=broker_url, BOT_SWEEP_AFTER_SECONDS="3", **env)
        self.schedule = Path(tempfile.mkdtemp(prefix="beat-")) / "schedule"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        output = open(self.log, "ab") if self.log is not None else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "catan_site", "worker", "-B", "-s", str(self.schedule)]
            + ["--pool", "solo", "--loglevel", self.env.get("LOG_LEVEL", "WARNING")]
            + ["--without-heartbeat", "--without-gossip"]
            + ["--queues", "celery,bots"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,  # Celery's start-up banner; log lines go to stderr
            stderr=output,
            start_new_session=True,
        )
        if self.log is not None:
            output.close()  # the child has its own copy

    def kill(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None


def forget_connections(app) -> None:
    """Drop the app's pooled connections: the next publish connects to the broker the configuration names."""
    app._pool = None
    app.amqp._producer_pool = None


def wait_until(condition, timeout: float, step: float = 0.2) -> float:
    """Wait for real work by real processes; returns how long it took."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(step)
    raise AssertionError(f"not within {timeout} s")
