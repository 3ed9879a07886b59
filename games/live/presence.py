"""Who is at the table: the open game sockets of each player on each game, kept in the shared cache (Redis in
production, so every server process sees them). Used for the disconnect grace of live turn clocks, and to hold
notices while their reader is at the table (games/mail/holding.py).

Each socket is an entry that expires (issue 42: a crashed web node must not hold notices for a day): a sorted set
per player and game, one member per socket (its channel name) scored with the moment it stops counting. Each web
process renews its open sockets' entries every PRESENCE_HEARTBEAT_SECONDS, for PRESENCE_TTL_SECONDS; a node that
dies (SIGKILL, a lost machine) renews nothing, so within PRESENCE_TTL_SECONDS its sockets stop counting, and its
players count as having left when their entries ran out (the notices' grace counts from then). A socket that
closes is removed at once, and the moment its player's last one closed is kept.

Faults err on the side of "still here" where a wrong "gone" would cost a player (a live clock shortened, a notice
sent twice): with the cache down, `joined` and `left` answer "here" and `here` answers yes. Holding notices
(`at_table`) answers "away, never here" instead: a notice then goes as it did before presence counted, rather than
waiting for a cache that may not come back."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import redis
from django.conf import settings
from django.core.cache import caches

from infra.cache import FailOpenRedisCache, warn_unavailable

logger = logging.getLogger(__name__)

# How long a player's keys live after their last change: a departure is remembered this long.
LIFETIME = 86400

# This process's sockets counted at the table: channel name -> (game id, user id), renewed by the heartbeat.
_open: dict[str, tuple[int, int]] = {}
_open_lock = threading.Lock()
_heartbeat: list[asyncio.Task] = []


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def _left_key(game_id: int, user_id: int) -> str:
    return f"presence-left:{game_id}:{user_id}"


def _redis() -> tuple[FailOpenRedisCache, redis.Redis] | None:
    """The shared cache and its redis-py client; None on another cache (one process: tests of other backends,
    a bare `manage.py` with no Redis), where the entries are a dict in the cache."""
    backend = caches["default"]
    if isinstance(backend, FailOpenRedisCache):
        return backend, backend.raw_client()
    return None


def _ttl() -> float:
    return float(settings.PRESENCE_TTL_SECONDS)


def joined(game_id: int, user_id: int, socket: str) -> int:
    """A socket of the player opened on this game (`socket`: its channel name); how many count now (1 with the
    cache down: counted as here). One round trip."""
    with _open_lock:
        _open[socket] = (game_id, user_id)
    now = time.time()
    found = _redis()
    if found is None:
        entries = _live(_entries(game_id, user_id), now)
        entries[socket] = now + _ttl()
        caches["default"].set(_key(game_id, user_id), entries, LIFETIME)
        return len(entries)
    backend, client = found
    key = backend.make_and_validate_key(_key(game_id, user_id))
    try:
        pipe = client.pipeline(transaction=False)
        pipe.zremrangebyscore(key, "-inf", now)  # sockets of a dead node: the player is here again anyway
        pipe.zadd(key, {socket: now + _ttl()})
        pipe.expire(key, LIFETIME)
        pipe.zcard(key)
        return int(pipe.execute()[-1])
    except (redis.RedisError, OSError):
        warn_unavailable("presence")
        return 1


def left(game_id: int, user_id: int, socket: str) -> int:
    """The player's sockets still counted on this game after `socket` closed; when none is left, the time they
    left is kept (the notices' grace counts from it). 1 with the cache down: still here."""
    with _open_lock:
        _open.pop(socket, None)
    now = time.time()
    found = _redis()
    if found is None:
        entries = _live(_entries(game_id, user_id), now)
        entries.pop(socket, None)
        caches["default"].set(_key(game_id, user_id), entries, LIFETIME)
        if not entries:
            caches["default"].set(_left_key(game_id, user_id), now, LIFETIME)
        return len(entries)
    backend, client = found
    key = backend.make_and_validate_key(_key(game_id, user_id))
    try:
        pipe = client.pipeline(transaction=False)
        pipe.zrem(key, socket)
        pipe.zcount(key, f"({now}", "+inf")
        remaining = int(pipe.execute()[-1])
        if remaining == 0:
            client.set(backend.make_and_validate_key(_left_key(game_id, user_id)), repr(now), ex=LIFETIME)
        return remaining
    except (redis.RedisError, OSError):
        warn_unavailable("presence")
        return 1


def renew() -> int:
    """The heartbeat: every socket of this process still open counts for PRESENCE_TTL_SECONDS more, in one round
    trip. How many were renewed (0 with the cache down: they run out, as a dead node's would)."""
    with _open_lock:
        sockets = dict(_open)
    if not sockets:
        return 0
    expires = time.time() + _ttl()
    found = _redis()
    if found is None:
        for socket, (game_id, user_id) in sockets.items():
            entries = _entries(game_id, user_id)
            entries[socket] = expires
            caches["default"].set(_key(game_id, user_id), entries, LIFETIME)
        return len(sockets)
    backend, client = found
    try:
        pipe = client.pipeline(transaction=False)
        for socket, (game_id, user_id) in sockets.items():
            key = backend.make_and_validate_key(_key(game_id, user_id))
            pipe.zadd(key, {socket: expires})
            pipe.expire(key, LIFETIME)
        pipe.execute()
    except (redis.RedisError, OSError):
        warn_unavailable("presence heartbeat")
        return 0
    # A socket that closed while the heartbeat ran was removed before this renewal wrote it again: remove it again.
    with _open_lock:
        closed = [(socket, place) for socket, place in sockets.items() if socket not in _open]
    for socket, (game_id, user_id) in closed:
        try:
            client.zrem(backend.make_and_validate_key(_key(game_id, user_id)), socket)
        except (redis.RedisError, OSError):
            pass  # it runs out within PRESENCE_TTL_SECONDS
    return len(sockets)


async def _beat() -> None:
    while True:
        await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
        try:
            await asyncio.to_thread(renew)
        except Exception:  # never let the heartbeat die: the sockets would stop counting
            logger.exception("presence heartbeat failed")


def ensure_heartbeat() -> None:
    """Start this process's heartbeat on the running loop, once (from async code: a game socket's connect)."""
    loop = asyncio.get_running_loop()
    if _heartbeat and not _heartbeat[0].done() and _heartbeat[0].get_loop() is loop:
        return
    _heartbeat[:] = [loop.create_task(_beat(), name="presence-heartbeat")]


def _entries(game_id: int, user_id: int) -> dict[str, float]:
    return dict(caches["default"].get(_key(game_id, user_id)) or {})


def _live(entries: dict[str, float], now: float) -> dict[str, float]:
    return {socket: expires for socket, expires in entries.items() if expires > now}


def at_table(game_id: int, user_id: int) -> tuple[bool, float | None]:
    """Whether the player has the game open now, and when (epoch seconds) they last left it: their last socket
    closed, or the last entry of a dead node's socket ran out (None: never, or long ago). One round trip. A cache
    that is down answers "away, never here" (see the module's docstring)."""
    return _read(game_id, user_id) or (False, None)


def _read(game_id: int, user_id: int) -> tuple[bool, float | None] | None:
    """`at_table`'s answer, None with the cache down."""
    now = time.time()
    found = _redis()
    try:
        if found is None:
            entries = _entries(game_id, user_id)
            closed = caches["default"].get(_left_key(game_id, user_id))
            live = any(expires > now for expires in entries.values())
            ran_out = max((expires for expires in entries.values() if expires <= now), default=None)
        else:
            backend, client = found
            pipe = client.pipeline(transaction=False)
            pipe.zcount(backend.make_and_validate_key(_key(game_id, user_id)), f"({now}", "+inf")
            pipe.zrevrangebyscore(
                backend.make_and_validate_key(_key(game_id, user_id)), now, "-inf", start=0, num=1, withscores=True
            )
            pipe.get(backend.make_and_validate_key(_left_key(game_id, user_id)))
            count, newest_expired, closed = pipe.execute()
            live = count > 0
            ran_out = newest_expired[0][1] if newest_expired else None
    except (redis.RedisError, OSError):
        return None
    if live:
        return True, None
    departures = [float(moment) for moment in (closed, ran_out) if moment is not None]
    return False, max(departures, default=None)


def here(game_id: int, user_id: int | None) -> bool:
    """Whether the player has a socket open on this game (a cache that is down answers "here")."""
    if user_id is None:
        return False
    found = _redis()
    if found is None:
        return bool(_live(_entries(game_id, user_id), time.time()))
    backend, client = found
    try:
        return client.zcount(backend.make_and_validate_key(_key(game_id, user_id)), f"({time.time()}", "+inf") > 0
    except (redis.RedisError, OSError):
        return True


def gone(game_id: int, user_id: int | None) -> bool:
    """Whether the player had a socket open on this game and none counts now (closed, or run out on a dead node;
    never counted: someone who plays without the board, over the API, is not "gone"; a cache that is down
    answers no)."""
    if user_id is None:
        return False
    read = _read(game_id, user_id)
    return read is not None and not read[0] and read[1] is not None
