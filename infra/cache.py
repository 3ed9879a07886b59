"""A Redis cache that fails open: with Redis down, a read misses and a write is dropped (logged), so the rate
limits and allauth's log-in limits stop counting for a while instead of answering 500 to every move and log-in.
Nothing the site must not lose lives in the cache: moves are in PostgreSQL."""

from __future__ import annotations

import functools
import logging
import threading
import time
from typing import Any

import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

logger = logging.getLogger(__name__)
# One warning per this many seconds while Redis stays down, not one per request.
WARN_EVERY = 30.0
_last_warning = [0.0]


def warn_unavailable(operation: str) -> None:
    """One warning (with the error) per WARN_EVERY seconds while Redis stays down, not one per request."""
    now = time.monotonic()
    if now - _last_warning[0] > WARN_EVERY:
        _last_warning[0] = now
        logger.warning("cache unavailable: %s fails open", operation, exc_info=True)


def _fail_open(default: Any):
    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except (redis.RedisError, OSError):
                warn_unavailable(method.__name__)
                return default(*args, **kwargs) if callable(default) else default

        return guarded

    return wrap


class SharedClientCache(RedisCacheClient):
    """Django's Redis cache client, handing out one redis-py client per pool rather than building one per call
    (each build copies redis-py's table of reply callbacks: a twentieth of a move's time on the server)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, redis.Redis] = {}
        self._building = threading.Lock()

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            # Built under a lock: Django's client builds a pool for an index it has not seen, and two threads
            # building at once would each build one (two pools, each with connections of its own).
            with self._building:
                client = self._clients.get(index)
                if client is None:
                    client = self._clients[index] = super().get_client(key, write=write)
        return client


# One client (and so one connection pool) per server and options, for the whole process. Django builds a cache
# object per thread and per async context, each with pools of its own: every thread a socket's work ran in
# opened new connections to Redis, while moves were being served.
_clients: dict[tuple[tuple[str, ...], str], RedisCacheClient] = {}
_clients_lock = threading.Lock()


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache, with every operation failing open (see the module's docstring), on connection pools
    shared by all its instances in the process (redis-py's pools are thread-safe, and reset after a fork)."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = SharedClientCache(self._servers, **self._options)
        return client

    def raw_client(self) -> redis.Redis:
        """The shared redis-py client, for a pipeline of several commands in one round trip."""
        return self._cache.get_client(write=True)

    get = _fail_open(lambda key, default=None, *args, **kwargs: default)(RedisCache.get)
    get_many = _fail_open(lambda *args, **kwargs: {})(RedisCache.get_many)
    has_key = _fail_open(False)(RedisCache.has_key)
    set = _fail_open(None)(RedisCache.set)
    set_many = _fail_open(lambda *args, **kwargs: [])(RedisCache.set_many)
    add = _fail_open(True)(RedisCache.add)
    touch = _fail_open(False)(RedisCache.touch)
    delete = _fail_open(False)(RedisCache.delete)
    delete_many = _fail_open(None)(RedisCache.delete_many)
    incr = _fail_open(1)(RedisCache.incr)
    clear = _fail_open(None)(RedisCache.clear)

    def count(self, key: str, amount: int, lifetime: int, when_down: int) -> int:
        """Add `amount` to a counter living `lifetime` seconds from its last change, in one round trip (INCRBY and
        EXPIRE in a pipeline); `when_down` with Redis unreachable (logged, once in a while)."""
        full = self.make_and_validate_key(key)
        try:
            pipe = self.raw_client().pipeline(transaction=False)
            pipe.incrby(full, amount)
            pipe.expire(full, lifetime)
            return int(pipe.execute()[0])
        except (redis.RedisError, OSError):
            warn_unavailable("count")
            return when_down


def count(key: str, *, amount: int = 1, lifetime: int, when_down: int) -> int:
    """A shared counter in the default cache (presence at the table, rate limits, bot thinking budgets): one round
    trip on Redis, `when_down` while it is unreachable; on another cache (tests of other backends) add and incr."""
    backend = caches["default"]
    if isinstance(backend, FailOpenRedisCache):
        return backend.count(key, amount, lifetime, when_down)
    backend.add(key, 0, timeout=lifetime)
    try:
        return backend.incr(key, amount)
    except ValueError:  # the key expired between add and incr
        backend.set(key, amount, timeout=lifetime)
        return amount
