"""Per-user rate limits on moves and chat, counted in the shared cache (Redis in production), so every
server process enforces the same budget."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
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
    key = f"rate:{kind}:{user.pk}:{window}"
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=120)
        count = 1
    if count > limit:
        raise GameError("rate_limited", _("Too many requests; wait a moment."), status=429)
