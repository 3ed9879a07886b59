"""A Redis cache that fails open: with Redis down, a read misses and a write is dropped (logged), so the rate
limits and allauth's log-in limits stop counting for a while instead of answering 500 to every move and log-in.
Nothing the site must not lose lives in the cache: moves are in PostgreSQL."""

from __future__ import annotations

import functools
import logging
import time
from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)
# One warning per this many seconds while Redis stays down, not one per request.
WARN_EVERY = 30.0
_last_warning = [0.0]


def _fail_open(default: Any):
    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except (redis.RedisError, OSError):
                now = time.monotonic()
                if now - _last_warning[0] > WARN_EVERY:
                    _last_warning[0] = now
                    logger.warning("cache unavailable: %s fails open", method.__name__, exc_info=True)
                return default(*args, **kwargs) if callable(default) else default

        return guarded

    return wrap


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache, with every operation failing open (see the module's docstring)."""

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
