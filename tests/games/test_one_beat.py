"""Issue "A fleet": one beat, whatever is started. Real `celery beat` processes against one private Redis broker:
two of them send each periodic task once, not twice; the holder SIGKILLed, the other takes over within the lease;
a beat stopped cleanly hands the lease over at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.games.private_services import PrivateRedis, wait_until
from tests.games.servers import ROOT, server_env

LEASE_SECONDS = 3
TICK_SECONDS = 0.5


@pytest.fixture
def broker(private_redis: PrivateRedis) -> PrivateRedis:
    """The beats' broker: a Redis of this test's own."""
    return private_redis


class Beat:
    """`celery beat` in a subprocess with a schedule file of its own, stopped by PID."""

    def __init__(self, broker_url: str) -> None:
        self.env = server_env(broker_url)
        self.env.update(
            CELERY_BROKER_URL=broker_url,
            REDIS_URL=broker_url,
            CLOCKS_TICK_SECONDS=str(TICK_SECONDS),
            BEAT_LEASE_SECONDS=str(LEASE_SECONDS),
        )
        folder = Path(tempfile.mkdtemp(prefix="beat-"))
        self.schedule = folder / "schedule"
        self.log = folder / "beat.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> Beat:
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "catan_site", "beat", "-s", str(self.schedule)]
                + ["--loglevel", "INFO"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def holds(self) -> bool:
        text = self.log.read_text(errors="replace")
        return text.rfind("holds the lease") > text.rfind("does not hold the lease")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None


def sent(broker: PrivateRedis) -> Counter:
    """Every task message waiting in the broker's queues, by task name (no worker takes them)."""
    client = broker.client()
    counts: Counter = Counter()
    for queue in ("celery", "bots"):
        for raw in client.lrange(queue, 0, -1):
            counts[json.loads(raw)["headers"]["task"]] += 1
    return counts


def ticks_during(broker: PrivateRedis, seconds: float) -> int:
    before = sent(broker)["games.clocks_tick"]
    time.sleep(seconds)
    return sent(broker)["games.clocks_tick"] - before


def test_two_beats_send_each_tick_once_and_the_survivor_takes_over(broker):
    beats = [Beat(broker.url).start(), Beat(broker.url).start()]
    try:
        assert wait_until(lambda: any(b.holds() for b in beats), 30) >= 0, "no beat took the lease"
        time.sleep(1)
        assert sum(b.holds() for b in beats) == 1
        once = 6 / TICK_SECONDS
        counted = ticks_during(broker, 6)
        # One beat ticks about twelve times in six seconds; two unguarded beats would tick twenty-four times.
        assert once * 0.6 <= counted <= once * 1.25, counted
        others = sent(broker)
        assert others["games.bots_sweep"] <= 1 and others["moderation.lift_expired_suspensions"] <= 1

        holder, standby = (beats[0], beats[1]) if beats[0].holds() else (beats[1], beats[0])
        holder.stop(signal.SIGKILL)  # no chance to give the lease back: it runs out
        waited = wait_until(standby.holds, LEASE_SECONDS + 10)
        assert waited <= LEASE_SECONDS + 3
        counted = ticks_during(broker, 4)
        assert 4 / TICK_SECONDS * 0.6 <= counted <= 4 / TICK_SECONDS * 1.25, counted
    finally:
        for beat in beats:
            beat.stop(signal.SIGKILL)


def test_a_beat_stopped_cleanly_hands_the_lease_over_at_once(broker):
    first = Beat(broker.url).start()
    second = None
    try:
        wait_until(first.holds, 30)
        assert first.holds()
        second = Beat(broker.url).start()
        time.sleep(4)  # started and asking: the lease is held
        assert not second.holds()
        first.stop(signal.SIGTERM)
        assert broker.client().get("catan:beat:lease") is None or second.holds()
        assert wait_until(second.holds, LEASE_SECONDS) <= LEASE_SECONDS
    finally:
        first.stop(signal.SIGKILL)
        if second is not None:
            second.stop(signal.SIGKILL)


def test_the_lease_is_one_key_with_a_time_to_live(broker):
    beat = Beat(broker.url).start()
    try:
        wait_until(beat.holds, 30)
        client = broker.client()
        holder = client.get("catan:beat:lease")
        assert holder is not None and str(beat.process.pid).encode() in holder
        assert 0 < client.pttl("catan:beat:lease") <= LEASE_SECONDS * 1000
    finally:
        beat.stop(signal.SIGKILL)
