"""Per-user rate limits on moves and chat, counted in the shared cache (Redis in production), so every
server process enforces the same budget."""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.dispatch import receiver
from django.test.signals import setting_changed
from django.utils.translation import gettext as _

from .errors import GameError

logger = logging.getLogger(__name__)


def check(user, kind: str) -> None:
    """Count one `kind` action for this user; raise a 429 GameError past the limit for the current minute (or
    hour, for the kinds of RATE_LIMITS_HOURLY)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return
    hourly = kind in settings.RATE_LIMITS_HOURLY
    limit = (settings.RATE_LIMITS_HOURLY if hourly else settings.RATE_LIMITS).get(kind)
    if not limit:
        return
    period = 3600 if hourly else 60
    window = int(time.time() // period)
    if _count(f"rate:{kind}:{user.pk}:{window}", period * 2) > limit:
        message = _("Too many in an hour; try again later.") if hourly else _("Too many requests; wait a moment.")
        raise GameError("rate_limited", message, status=429)


def within_budget(user_id: int, kind: str) -> bool:
    """Count one `kind` use for this user in the current minute; whether it is within BUDGETS (no error: the
    caller degrades instead of refusing)."""
    budget = settings.BUDGETS.get(kind)
    if not budget:
        return True
    window = int(time.time() // 60)
    return _count(f"budget:{kind}:{user_id}:{window}") <= budget


_shared: dict[str, Any] = {}


@receiver(setting_changed)
def _forget_cache(setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        _shared.clear()


def _cache() -> Any:
    """The default cache, held once per process: `caches` gives each thread and task its own instance, and a
    Redis one would open a new connection for every move."""
    if "cache" not in _shared:
        _shared["cache"] = cache = caches.create_connection("default")
        if isinstance(cache, RedisCache):
            _shared["redis"] = cache._cache.get_client(write=True)  # thread-safe, with its connection pool
    return _shared["cache"]


def _count(key: str, lifetime: int = 120) -> int:
    """Add one to a counter that lives two minutes; on Redis in a single round trip. With Redis down the limit
    fails open (0, logged): moves must go on."""
    cache = _cache()
    if isinstance(cache, RedisCache):
        full = cache.make_and_validate_key(key)
        pipe = _shared["redis"].pipeline(transaction=False)
        pipe.incr(full)
        pipe.expire(full, lifetime)
        try:
            return int(pipe.execute()[0])
        except (redis.RedisError, OSError):
            logger.warning("rate limit not counted: the cache is unavailable", exc_info=True)
            return 0
    cache.add(key, 0, timeout=lifetime)
    try:
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=lifetime)
        return 1
