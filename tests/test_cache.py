"""The fail-open Redis cache: one connection pool per process, and presence counted in one round trip."""

from __future__ import annotations

import threading

from django.core.cache import caches

from games.live import presence
from tests.games.private_services import PrivateRedis


def _in_threads(function, count: int = 6) -> list:
    """`function`'s results in `count` threads, started together (a barrier) so that first uses race."""
    results: list = []
    barrier = threading.Barrier(count)

    def run() -> None:
        barrier.wait()
        results.append(function())

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_every_thread_shares_one_client_and_its_connection_pool(settings, redis_url):
    """Issue "Live play": Django builds a cache object per thread and async context, and each built pools of its
    own (`ConnectionPool.from_url` while moves were served, new connections to Redis from every worker thread)."""
    settings.CACHES = {
        "default": {"BACKEND": "infra.cache.FailOpenRedisCache", "LOCATION": redis_url, "OPTIONS": {}}
    }
    clients = _in_threads(lambda: caches["default"]._cache)
    pools = _in_threads(lambda: caches["default"].raw_client().connection_pool)
    assert len({id(c) for c in clients}) == 1
    assert len({id(p) for p in pools}) == 1


def test_a_player_joining_a_table_costs_one_round_trip():
    """The socket's entry written, its key's lifetime set and the count read in one pipeline, where add + incr sent
    SET NX, EXISTS and INCRBY one after another."""
    private = PrivateRedis()
    private.start()
    try:
        from django.test import override_settings

        location = {"BACKEND": "infra.cache.FailOpenRedisCache", "LOCATION": private.url, "OPTIONS": {}}
        with override_settings(CACHES={"default": location}):
            client = private.client()
            client.config_resetstat()
            assert presence.joined(7, 11, "socket-a") == 1
            assert presence.joined(7, 11, "socket-b") == 2
            stats = client.info("commandstats")
            sent = {name.removeprefix("cmdstat_"): value["calls"] for name, value in stats.items()}
            assert sent.get("exists", 0) == 0 and sent.get("set", 0) == 0
            assert sent.get("zadd") == 2 and sent.get("expire") == 2 and sent.get("zcard") == 2
            assert 0 < client.ttl(caches["default"].make_and_validate_key("presence:7:11")) <= presence.LIFETIME
            presence.left(7, 11, "socket-a")
            presence.left(7, 11, "socket-b")
    finally:
        private.stop()
