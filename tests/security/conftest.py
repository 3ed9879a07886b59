"""Shared fixtures for the security tests: an empty cache (the limits live there) and a real server."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.core.cache import cache

from tests.games.servers import free_port, server_env, start_server, stop


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    """Failed logins and throttles are counted in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def serve(postgres, redis_url) -> Iterator[Callable[..., int]]:
    """Start the site under uvicorn (catan_site.serve) with extra environment; returns its port."""
    servers = []

    def start(**extra: str) -> int:
        port = free_port()
        servers.append(start_server(port, {**server_env(redis_url), **extra}))
        return port

    yield start
    for server in servers:
        stop(server)
