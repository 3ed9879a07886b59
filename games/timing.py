"""Where a live move's time goes, stage by stage, measured inside the server (bench/load.py reads it).

Off unless the environment names MOVE_TIMINGS (a path prefix): then each move over a game socket records the
time it spent in each stage, and on SIGUSR1 the process writes what it recorded since the last signal to
`<MOVE_TIMINGS>-<pid>.json` and starts afresh (catan_site.serve installs the handler). Off, a mark is one
context-variable read.

The stages, in order: `parse` (the frame decoded and checked, on the event loop), `to_thread` (waiting for a
worker thread), `limit` (the rate limit), `lock` (the game row locked), `apply` (the rules, the move row
queued), `save` (snapshot, clock, email rows), `commit`, `to_loop` (back on the event loop), `fanout` (the
frames published to the channel layer) and `ack` (the answer sent to the mover).
"""

from __future__ import annotations

import contextvars
import json
import os
import threading
import time
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


def dump(*_args: object) -> None:
    """Write the stages recorded since the last dump (milliseconds) and start afresh."""
    with _lock:
        taken = {stage: [round(s * 1000, 3) for s in seconds] for stage, seconds in _samples.items()}
        _samples.clear()
    path = Path(f"{PREFIX}-{os.getpid()}.json")
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(taken))
    partial.rename(path)
