"""Who is at the table: open game sockets per player and game, counted in the shared cache (Redis in
production, so every server process sees the same count). Used for the disconnect grace of live turn clocks, and
to hold email notices while their reader is at the table (games/mail/holding.py).

A count only errs on the side of "still here": a server that dies without closing its sockets leaves counts
that expire after a day, and a cache that is down answers "here"."""

from __future__ import annotations

import time

from django.core.cache import cache

from infra.cache import count

LIFETIME = 86400


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def joined(game_id: int, user_id: int) -> int:
    """One more socket of the player open on this game; the count now (1 with the cache down: counted as here,
    as the other counts err)."""
    return count(_key(game_id, user_id), lifetime=LIFETIME, when_down=1)


def _left_key(game_id: int, user_id: int) -> str:
    return f"presence-left:{game_id}:{user_id}"


def left(game_id: int, user_id: int) -> int:
    """The player's sockets still open on this game after one closed; when that was the last, the time they left
    is kept (the notices' grace counts from it)."""
    try:
        remaining = max(0, cache.decr(_key(game_id, user_id)))
    except ValueError:  # never counted (or expired): nobody known to be here
        return 0
    if remaining == 0:
        cache.set(_left_key(game_id, user_id), time.time(), LIFETIME)
    return remaining


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


def at_table(game_id: int, user_id: int) -> tuple[bool, float | None]:
    """For holding notices: whether the player has the game open now, and when (epoch seconds) they last closed it
    (None: never, or long ago). In one cache round trip. A cache that is down answers "away, never here": a notice
    then goes as it did before presence counted, rather than waiting for a cache that may not come back."""
    keys = [_key(game_id, user_id), _left_key(game_id, user_id)]
    try:
        found = cache.get_many(keys)
    except Exception:
        return False, None
    return bool(found.get(keys[0], 0)), found.get(keys[1])
