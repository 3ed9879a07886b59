"""Who is at the table: open game sockets per player and game, counted in the shared cache (Redis in
production, so every server process sees the same count). Used for the disconnect grace of live turn clocks.

A count only errs on the side of "still here": a server that dies without closing its sockets leaves counts
that expire after a day, and a cache that is down answers "here"."""

from __future__ import annotations

import redis
from django.core.cache import cache, caches

LIFETIME = 86400


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def joined(game_id: int, user_id: int) -> int:
    key = _key(game_id, user_id)
    backend = caches["default"]
    if hasattr(backend, "raw_client"):  # Redis (catan_site.cache): one round trip, not three (SET NX, EXISTS, INCRBY)
        full = backend.make_and_validate_key(key)
        try:
            pipe = backend.raw_client().pipeline(transaction=False)
            pipe.incr(full)
            pipe.expire(full, LIFETIME)
            return int(pipe.execute()[0])
        except (redis.RedisError, OSError):
            return 1  # the cache is down: counted as here, as the other counts err
    cache.add(key, 0, timeout=LIFETIME)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=LIFETIME)
        return 1


def left(game_id: int, user_id: int) -> int:
    """The player's sockets still open on this game after one closed."""
    try:
        return max(0, cache.decr(_key(game_id, user_id)))
    except ValueError:  # never counted (or expired): nobody known to be here
        return 0


def here(game_id: int, user_id: int | None) -> bool:
    """Whether the player has a socket open on this game (a cache that is down answers "here")."""
    if user_id is None:
        return False
    try:
        return bool(cache.get(_key(game_id, user_id), 0))
    except Exception:  # the cache is down: err on the side of "still here", as the counts do
        return True


def gone(game_id: int, user_id: int | None) -> bool:
    """Whether the player had a socket open on this game and has closed them all (never counted: someone who
    plays without the board, over the API, is not "gone"; a cache that is down answers no)."""
    if user_id is None:
        return False
    try:
        return cache.get(_key(game_id, user_id)) == 0
    except Exception:
        return False
