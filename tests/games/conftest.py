"""Fixtures of the games tests."""

from __future__ import annotations

import pytest

from tests.games.servers import free_port, server_env, start_server, stop


@pytest.fixture
def server(postgres, redis_channel_layer, redis_url):
    """A real ASGI server process on the test database and Redis; its port."""
    port = free_port()
    process = start_server(port, server_env(redis_url))
    yield port
    stop(process)

