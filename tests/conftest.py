"""Shared fixtures. Tests that need PostgreSQL or Redis skip without them, but fail under REQUIRE_SERVICES=1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def missing_service(message: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"required service unavailable: {message}")
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


@pytest.fixture(scope="session", autouse=True)
def cache_of_this_session():
    """Start from an empty cache: each session builds a new test database whose games and users reuse the ids of
    the last session's, and keys left by it (who is at a table, rate-limit counts) would apply to them."""
    from django.core.cache import cache

    cache.clear()  # the fail-open cache does nothing when Redis is down


def _reset_channel_layers() -> None:
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture
def redis_channel_layer(settings, redis_url):
    from catan_site.env_config import channel_layers_config

    settings.CHANNEL_LAYERS = channel_layers_config({"REDIS_URL": redis_url})
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


# Where tests/e2e/base.py keeps its screenshots.
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


def pytest_terminal_summary(terminalreporter) -> None:
    """Name the screenshots the browser tests kept (each viewport, each failure): CI's artifacts."""
    if ARTIFACTS.is_dir() and any(ARTIFACTS.iterdir()):
        names = sorted(p.name for p in ARTIFACTS.iterdir())
        terminalreporter.write_sep("-", f"test artifacts kept in {ARTIFACTS}")
        terminalreporter.write_line(", ".join(names))
