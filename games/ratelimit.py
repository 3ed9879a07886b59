"""Per-user rate limits on moves and chat, counted in the shared cache (Redis in production), so every
server process enforces the same budget."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.dispatch import receiver
from django.test.signals import setting_changed
from django.utils.translation import gettext as _

from .errors import GameError


def check(user, kind: str) -> None:
    """Count one `kind` action for this user; raise a 429 GameError past the limit for the current minute."""
    if user is None or not getattr(user, "is_authenticated", False):
        return
    limit = settings.RATE_LIMITS.get(kind)
    if not limit:
        return
    window = int(time.time() // 60)
    if _count(f"rate:{kind}:{user.pk}:{window}") > limit:
        raise GameError("rate_limited", _("Too many requests; wait a moment."), status=429)


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


def _count(key: str) -> int:
    """Add one to a counter that lives two minutes; on Redis in a single round trip."""
    cache = _cache()
    if isinstance(cache, RedisCache):
        full = cache.make_and_validate_key(key)
        pipe = _shared["redis"].pipeline(transaction=False)
        pipe.incr(full)
        pipe.expire(full, 120)
        return int(pipe.execute()[0])
    cache.add(key, 0, timeout=120)
    try:
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=120)
        return 1
