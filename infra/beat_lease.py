"""One beat, however many are started: Celery beat's own scheduler, sending only while it holds a lease in Redis.

A site run as a fleet may start beat on several machines (a node's Procfile, a second deployment during a
rollout, an operator's mistake). Each beat would tick every clock, reminder and sweep once more. Here every beat
asks for the lease before each tick: one key in the broker's Redis, set with a time-to-live by the first beat
and renewed by its holder only (one Lua script, atomic). The others wait on standby and take over within
`BEAT_LEASE_SECONDS` of the holder's death. While Redis cannot be reached, the holder goes on only until its own
lease would have run out (less a margin for the clocks' drift), and a standby never starts: no tick is doubled.

Configured for every beat of the site by `CELERY_BEAT_SCHEDULER` (catan_site/settings.py); without a Redis broker
(a bare `manage.py`, eager tasks) there is nothing to share and every tick is sent.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from typing import Any

import redis
from celery.beat import PersistentScheduler

logger = logging.getLogger(__name__)

# Take the lease when nobody holds it, or renew it when we do; 1 when we hold it afterwards, else 0.
_HOLD = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
# Give the lease back (a beat stopped cleanly): the next one need not wait for it to run out.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
# The holder stops sending this long before its lease runs out in Redis, for the clocks' drift.
DRIFT_MARGIN = 0.2


class LeasedScheduler(PersistentScheduler):
    """Celery's default scheduler (its schedule file included) behind a lease: `tick` sends due tasks only while
    this beat holds the lease, and comes back often enough to renew it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lease_seconds = float(os.environ.get("BEAT_LEASE_SECONDS", "15"))
        self.lease_key = os.environ.get("BEAT_LEASE_KEY", "catan:beat:lease")
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.held_until = 0.0  # monotonic: until when this beat may send without hearing from Redis
        self.holding = False
        self._client: redis.Redis | None = None
        super().__init__(*args, **kwargs)

    def _redis(self) -> redis.Redis | None:
        url = str(self.app.conf.broker_url or "")
        if not url.startswith(("redis://", "rediss://", "unix://")):
            return None
        if self._client is None:
            self._client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
        return self._client

    def holds_lease(self) -> bool:
        """Ask Redis for the lease (take it, or renew it); without an answer, hold on only as long as it lasts."""
        client = self._redis()
        if client is None:
            return True
        now = time.monotonic()
        try:
            held = bool(client.eval(_HOLD, 1, self.lease_key, self.holder, int(self.lease_seconds * 1000)))
        except redis.RedisError as error:
            held = now < self.held_until
            logger.warning("beat: the lease could not be renewed (%s); %s", error, "sending" if held else "standing by")
            return held
        if held:
            self.held_until = now + self.lease_seconds * (1 - DRIFT_MARGIN)
        else:
            self.held_until = 0.0
        if held != self.holding:
            logger.info("beat %s: %s the lease", self.holder, "holds" if held else "does not hold")
            self.holding = held
        return held

    def tick(self, *args: Any, **kwargs: Any) -> float:
        """Send what is due while holding the lease; either way, be back within a third of the lease."""
        if not self.holds_lease():
            return self.lease_seconds / 3
        return min(super().tick(*args, **kwargs), self.lease_seconds / 3)

    def close(self) -> None:
        super().close()
        client = self._redis()
        if client is not None and self.holding:
            try:
                client.eval(_RELEASE, 1, self.lease_key, self.holder)
            except redis.RedisError:
                pass  # it runs out on its own
