"""Presence at the table (games/live/presence.py): each socket counts until it closes or, on a node that stopped
renewing it (killed), until PRESENCE_TTL_SECONDS after its last renewal; the faults err as the module says."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from games.live import presence
from tests.games.private_services import PrivateRedis

TTL = 0.6


@pytest.fixture
def short_presence(settings):
    settings.PRESENCE_TTL_SECONDS = TTL
    presence._open.clear()  # this process's other sockets (other tests'), which `renew` would count
    yield
    presence._open.clear()


@pytest.fixture(params=["redis", "locmem"])
def backend(request, redis_url):
    """The shared Redis cache, and the one-process cache of a bare `manage.py`."""
    if request.param == "redis":
        location = {"BACKEND": "infra.cache.FailOpenRedisCache", "LOCATION": redis_url, "OPTIONS": {}}
    else:
        location = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "presence-test"}
    with override_settings(CACHES={"default": location}):
        yield request.param


def test_a_socket_counts_while_renewed_and_runs_out_when_its_node_stops_renewing(short_presence, backend):
    game, user = 9001, int(time.time() * 1000) % 1_000_000
    assert presence.at_table(game, user) == (False, None) and not presence.gone(game, user)
    assert presence.joined(game, user, "node-a.socket") == 1
    assert presence.joined(game, user, "node-b.socket") == 2
    for _ in range(3):  # renewed: still here well past the TTL
        time.sleep(TTL / 2)
        assert presence.renew() == 2
        assert presence.here(game, user) and presence.at_table(game, user) == (True, None)
    presence.left(game, user, "node-b.socket")  # closed; node A dies: its socket is never closed nor renewed
    renewed_at = time.time()
    presence._open.clear()
    assert presence.here(game, user) and not presence.gone(game, user)
    time.sleep(TTL + 0.2)
    here, left_at = presence.at_table(game, user)
    assert not here and not presence.here(game, user) and presence.gone(game, user)
    # It left when its last renewal ran out (not when the other socket closed, earlier).
    assert renewed_at <= left_at <= renewed_at + TTL + 0.05, (renewed_at, left_at)
    assert presence.joined(game, user, "node-c.socket") == 1  # back on another node: the dead entry is gone
    assert presence.left(game, user, "node-c.socket") == 0
    here, left_at = presence.at_table(game, user)
    assert not here and time.time() - left_at < 1


def test_a_closed_socket_is_not_written_back_by_the_heartbeat(short_presence, redis_url):
    location = {"BACKEND": "infra.cache.FailOpenRedisCache", "LOCATION": redis_url, "OPTIONS": {}}
    with override_settings(CACHES={"default": location}):
        game, user = 9002, int(time.time() * 1000) % 1_000_000
        presence.joined(game, user, "s1")
        assert presence.left(game, user, "s1") == 0
        presence.renew()
        assert not presence.here(game, user) and presence.gone(game, user)


def test_with_the_cache_down_a_player_is_here_for_the_clocks_and_away_for_the_notices(short_presence):
    """The guarantees of before: the live clock's grace is never started by a cache that cannot tell (`left`
    answers "still here", `gone` no), and a notice goes as it did before presence counted (`at_table`: away)."""
    private = PrivateRedis()
    private.start()
    location = {
        "BACKEND": "infra.cache.FailOpenRedisCache",
        "LOCATION": private.url,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    try:
        with override_settings(CACHES={"default": location}):
            presence.joined(1, 2, "s")
            private.stop()
            assert presence.joined(1, 2, "t") == 1
            assert presence.left(1, 2, "s") == 1
            assert presence.here(1, 2) is True
            assert presence.gone(1, 2) is False
            assert presence.at_table(1, 2) == (False, None)
            assert presence.renew() == 0
    finally:
        private.stop()
