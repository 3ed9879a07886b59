"""Per-user rate limits on moves and chat, and the budget of bot thinking per game creator, counted in the shared
cache (Redis in production), so every server process and worker enforces the same budget.

A generous per-minute limit (moves: 240) is counted on Redis a few actions at a time: a process adds LEASE to the
user's count in one round trip and grants those actions itself, one by one; one round trip per move was a
twentieth of a live move's server time. A process grants only actions it has counted, so no more than the limit
is ever granted across processes; a user acting through several processes at once may be refused up to LEASE - 1
actions early per other process (2 % of the moves' limit). Small limits (chat, invites, the hourly ones) are
counted one by one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils.translation import gettext as _

from infra.cache import count
from infra.errors import GameError


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
    if not _granted(f"rate:{kind}:{user.pk}:{window}", limit, period):
        message = _("Too many in an hour; try again later.") if hourly else _("Too many requests; wait a moment.")
        raise GameError("rate_limited", message, status=429)


LEASE_MAX = 5
# Actions counted on Redis and not yet granted, by counter key and limit; a key names its window.
_leases: dict[tuple[str, int], int] = {}
_leases_lock = threading.Lock()


def _lease_size(limit: int, period: int) -> int:
    return max(1, min(LEASE_MAX, limit // 48)) if period == 60 else 1


def _granted(key: str, limit: int, period: int) -> bool:
    """Whether one more action fits under `limit` in the window `key` counts (see the module's docstring)."""
    size = _lease_size(limit, period)
    if size == 1:
        return _count(key, period * 2) <= limit
    held = (key, limit)
    with _leases_lock:
        left = _leases.get(held, 0)
        if left:
            _leases[held] = left - 1
            return True
    total = _count(key, period * 2, amount=size)  # 0 with Redis down: fails open
    allowed = min(size, limit - (total - size))
    if allowed <= 0:
        return False
    with _leases_lock:
        if len(_leases) > 10_000:  # keys of past windows
            _leases.clear()
        _leases[held] = _leases.get(held, 0) + allowed - 1
    return True


def forget_leases() -> None:
    """Drop the actions this process has counted and not granted (the tests' fresh start, with the cache's)."""
    with _leases_lock:
        _leases.clear()


def bot_allowance() -> float:
    """Seconds one game creator's bots may think a minute: their share of the bot workers' time."""
    return settings.BOT_WORKERS * 60 * settings.BOT_USER_SHARE


@contextmanager
def bot_thinking(user_id: int | None, *, hard: bool) -> Iterator[bool]:
    """Count one bot decision's thinking on its game creator's budget for the minute (`bot_allowance`), and say
    whether a hard bot may search. A hard decision first takes BOT_HARD_SECONDS from the budget, exactly between
    processes (added, then given back if over); when they do not fit, it must decide as a medium bot (no search,
    ~1 ms): it still moves, and other players' bots keep their share. Afterwards the time really spent is
    counted, at every level. No creator: no budget. With the cache down it fails open (the bot searches)."""
    if user_id is None:
        yield hard
        return
    window = f"budget:bot_ms:{user_id}:{int(time.time() // 60)}"
    reserved = round(settings.BOT_HARD_SECONDS * 1000) if hard else 0
    search = hard and _count(window, amount=reserved) <= round(bot_allowance() * 1000)
    if hard and not search:
        _count(window, amount=-reserved)
        reserved = 0
    start = time.perf_counter()
    try:
        yield search
    finally:
        _count(window, amount=round((time.perf_counter() - start) * 1000) - reserved)


def _count(key: str, lifetime: int = 120, amount: int = 1) -> int:
    """Add `amount` (one) to a counter that lives `lifetime` seconds; on Redis in a single round trip. With Redis
    down the limit fails open (0, logged): moves must go on."""
    return count(key, amount=amount, lifetime=lifetime, when_down=0)
