"""Where a live move's time goes, stage by stage, measured inside the server (bench/load.py reads it).

Off unless the environment names MOVE_TIMINGS (a path prefix): then each move over a game socket records the
time it spent in each stage, and on SIGUSR1 the process writes what it recorded since the last signal to
`<MOVE_TIMINGS>-<pid>.json` and starts afresh (catan_site.serve installs the handler). Off, a mark is one
context-variable read.

The stages, in order: `parse` (the frame decoded and checked, on the event loop), `to_thread` (waiting for a
worker thread), `limit` (the rate limit), `lock` (the game row locked), `apply` (the rules, the move row
queued), `save` (snapshot, clock, email rows), `commit`, `to_loop` (back on the event loop), `fanout` (the
frames published to the channel layer) and `ack` (the answer sent to the mover). Apart: `deliver`, from the
publish to each receiving socket's consumer (every server process), one sample per socket.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import json
import os
import sys
import threading
import time
import traceback
from collections import defaultdict
from pathlib import Path

PREFIX = os.environ.get("MOVE_TIMINGS", "")
STAGES = ("parse", "to_thread", "limit", "lock", "apply", "save", "commit", "to_loop", "fanout", "ack")


class _Probe:
    __slots__ = ("last", "spent")

    def __init__(self, started: float) -> None:
        self.last = started
        self.spent: dict[str, float] = {}


_probe: contextvars.ContextVar[_Probe | None] = contextvars.ContextVar("move_probe", default=None)
_samples: dict[str, list[float]] = defaultdict(list)
_lock = threading.RLock()  # the dump runs in a signal handler, perhaps inside `end` on the same thread


def begin(started: float) -> None:
    """A move's frame arrived at `started` (time.perf_counter()); its stages are marked from there."""
    if PREFIX:
        _probe.set(_Probe(started))


def mark(stage: str) -> None:
    """The move has finished `stage` now."""
    probe = _probe.get()
    if probe is not None:
        now = time.perf_counter()
        probe.spent[stage] = probe.spent.get(stage, 0.0) + now - probe.last
        probe.last = now


def end(accepted: bool) -> None:
    """The move is answered: keep its stages (accepted moves only: a refusal skips most of them)."""
    probe = _probe.get()
    if probe is None:
        return
    _probe.set(None)
    if not accepted:
        return
    with _lock:
        for stage, seconds in probe.spent.items():
            _samples[stage].append(seconds)
        _samples["total"].append(sum(probe.spent.values()))


def delivered(event: dict) -> None:
    """A frame published at event["sent_at"] (wall clock, set by the outbox) reached a socket's consumer now."""
    sent = event.get("sent_at")
    if PREFIX and sent is not None:
        now = time.time()
        with _lock:
            _samples["deliver"].append(now - sent)
            if now - sent > 0.1:
                _stalls.append(f"slow delivery {1000 * (now - sent):.0f} ms, sent at {sent:.3f}")


_gc_started = [0.0]


def _gc_pause(phase: str, info: dict) -> None:
    """How long each collection of the oldest generation holds the process (every thread waits for it)."""
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    elif info.get("generation") == 2:
        with _lock:
            _samples["gc_full"].append(time.perf_counter() - _gc_started[0])


def watch_collections() -> None:
    gc.callbacks.append(_gc_pause)


_beat = [0.0]


async def watch_loop() -> None:
    """Beat every 10 ms on the event loop; `_watchdog` (a thread) notes how long the loop went without a beat and,
    past 50 ms, what the loop's thread was doing then (the stalls a frame waits behind)."""
    main = threading.get_ident()
    threading.Thread(target=_watchdog, args=(main,), name="loop-watchdog", daemon=True).start()
    while True:
        _beat[0] = time.perf_counter()
        await asyncio.sleep(0.01)


def _watchdog(main: int) -> None:
    reported = 0.0
    while True:
        time.sleep(0.02)
        late = time.perf_counter() - _beat[0]
        if late > 0.05 and _beat[0] != reported:
            reported = _beat[0]
            frame = sys._current_frames().get(main)
            where = "".join(traceback.format_stack(frame, limit=12)) if frame else "?"
            with _lock:
                _stalls.append(f"{late * 1000:.0f} ms+ at {time.time():.3f}:\n{where}")


_stalls: list[str] = []
_watching: list = []


def ensure_watching() -> None:
    """Start the loop watch on the running loop, once per process (from async code)."""
    if PREFIX and not _watching:
        _watching.append(asyncio.ensure_future(watch_loop()))


def dump(*_args: object) -> None:
    """Write the stages recorded since the last dump (milliseconds) and start afresh."""
    with _lock:
        taken: dict = {stage: [round(s * 1000, 3) for s in seconds] for stage, seconds in _samples.items()}
        taken["stalls"] = list(_stalls)
        _samples.clear()
        _stalls.clear()
    path = Path(f"{PREFIX}-{os.getpid()}.json")
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(taken))
    partial.rename(path)
