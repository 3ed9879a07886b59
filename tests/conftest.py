"""Shared fixtures. The suite runs on PostgreSQL and Redis, everywhere: `make test` starts its own when
DATABASE_URL and REDIS_URL name none (devstack/local.py), and pytest run by hand without them stops at once.
Browser tests skip where Chromium is missing, but fail under REQUIRE_BROWSER=1 (CI)."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

REQUIRE_BROWSER = os.environ.get("REQUIRE_BROWSER") == "1"


def pytest_configure(config) -> None:
    database, cache = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database.startswith(("postgres://", "postgresql://")) or not cache.startswith("redis://"):
        raise pytest.UsageError(
            "the suite runs on PostgreSQL and Redis: run it with `make test` (which starts its own), or "
            "`.venv/bin/python -m devstack.local test -- .venv/bin/python -m pytest ...`, or set DATABASE_URL "
            "(postgres://...) and REDIS_URL (redis://...)"
        )


def missing_service(message: str) -> None:
    """A service the suite needs is not there: the test fails (PostgreSQL and Redis are always given)."""
    pytest.fail(f"required service unavailable: {message}")


def missing_browser(message: str) -> None:
    if REQUIRE_BROWSER:
        pytest.fail(f"required browser unavailable: {message}")
    pytest.skip(message)


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        missing_service("REDIS_URL is not set")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        missing_service(f"Redis at {url} is unreachable: {error}")
    return url


@pytest.fixture(autouse=True)
def empty_cache():
    """Every test starts from an empty cache. Each session builds a new test database whose games and users reuse
    the ids of the last session's, and keys left by it (who is at a table, rate-limit counts) would apply to them;
    and the servers a test starts count in this worker's Redis database too: a fuzzer's or a proxy test's wrong
    passwords from 127.0.0.1 locked a later test's log-in for a minute."""
    from django.core.cache import cache

    from games import ratelimit

    cache.clear()  # the fail-open cache does nothing when Redis is down
    ratelimit.forget_leases()  # what this process counted on Redis and holds


def _reset_channel_layers() -> None:
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture
def redis_channel_layer(settings, redis_url):
    from catan_site.env_config import channel_layers_config

    prefix = os.environ.get("CHANNEL_LAYER_PREFIX", "asgi")  # this xdist worker's (tests/xdist_worker.py)
    settings.CHANNEL_LAYERS = channel_layers_config({"REDIS_URL": redis_url, "CHANNEL_LAYER_PREFIX": prefix})
    _reset_channel_layers()
    yield settings.CHANNEL_LAYERS
    _reset_channel_layers()


@pytest.fixture
def memory_channel_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    _reset_channel_layers()
    yield settings.CHANNEL_LAYERS
    _reset_channel_layers()


@pytest.fixture
def postgres(db):
    from django.db import connection

    if connection.vendor != "postgresql":
        missing_service("DATABASE_URL does not point at PostgreSQL")
    return connection


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hashing a password properly takes a third of a second; tests create hundreds of users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def eager_celery():
    """Tasks run in-process unless a test starts a real worker."""
    from catan_site.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def bots_without_delay(settings):
    """Bots play at once, in the thread that queued them (with a delay, in-process bots play from a timer thread
    so that a person's request never waits for them; tests that check the pace set the delay themselves)."""
    settings.BOT_LIVE_DELAY_SECONDS = 0


@pytest.fixture
def server_folder():
    """A folder for a PostgreSQL of a test's own, removed afterwards. Not under pytest's tmp_path: as root the
    server runs as another user (catan-pg) who must be able to reach it, and every pytest process that starts
    (another xdist worker, another run) sets /tmp/pytest-of-root back to 0700."""
    folder = Path(tempfile.mkdtemp(prefix="catan-test-server-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# Threads that may outlive a test: idle workers of a pool that the next test reuses (asgiref's sync_to_async
# executor, asyncio's default executor), which parse nothing while they wait.
POOLED_THREADS = ("ThreadPoolExecutor", "asyncio_")


@pytest.fixture(autouse=True)
def no_thread_outlives_its_test():
    """A thread left running by a test runs on during the next ones: it fires tasks against another test's data,
    and, where it compiles code while pytest parses a failing test's source, aborts the run (CPython gh-106905,
    'AST constructor recursion depth mismatch'). In-process tasks still waiting for their countdown are
    cancelled; any other thread the test started must have ended with it."""
    before = set(threading.enumerate())
    yield
    from games import outbox

    outbox.cancel_waiting()
    deadline = time.monotonic() + 5
    while True:
        left = [
            t
            for t in threading.enumerate()
            if t not in before and t.is_alive() and not t.name.startswith(POOLED_THREADS)
        ]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if left:
        pytest.fail(f"threads outlived the test: {', '.join(sorted(t.name for t in left))}", pytrace=False)


# Where tests/e2e/base.py keeps its screenshots.
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


def pytest_terminal_summary(terminalreporter) -> None:
    """Name the screenshots the browser tests kept (each viewport, each failure): CI's artifacts."""
    if ARTIFACTS.is_dir() and any(ARTIFACTS.iterdir()):
        names = sorted(p.name for p in ARTIFACTS.iterdir())
        terminalreporter.write_sep("-", f"test artifacts kept in {ARTIFACTS}")
        terminalreporter.write_line(", ".join(names))
