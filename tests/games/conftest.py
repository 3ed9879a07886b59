"""Fixtures of the games tests."""

from __future__ import annotations

import pytest

from tests.games.private_services import PrivateRedis
from tests.games.servers import free_port, running_servers, server_env, start_server, stop


@pytest.fixture
def private_redis():
    """A redis-server of this test's own on a free port, stopped by PID at the end (the test may stop it first)."""
    private = PrivateRedis()
    private.start()
    yield private
    private.stop()


@pytest.fixture
def server(postgres, redis_channel_layer, redis_url):
    """A real ASGI server process on the test database and Redis; its port."""
    port = free_port()
    process = start_server(port, server_env(redis_url))
    yield port
    stop(process)



@pytest.fixture
def two_servers(postgres, redis_url):
    """Two real ASGI server processes on the suite's PostgreSQL and Redis (the cache this process and its worker
    read too); their ports."""
    with running_servers(server_env(redis_url), 2) as (ports, _processes):
        yield ports
