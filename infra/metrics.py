"""The site's Prometheus series, one place (docs/OPERATIONS.md lists them; ops/ serves them at /metrics).

prometheus-client in multiprocess mode when PROMETHEUS_MULTIPROC_DIR names a folder (every web node process, Celery
worker and beat writes its own files there and a scrape adds them up); without it, each process counts alone
(a bare `manage.py shell`). An update is a lock-free-ish add to a memory-mapped file: no network I/O, and the
move path records its stages only after the game lock is released.

Figures read at scrape time (games active, the oldest waiting mail, queue lengths) are not kept here: ops/collect.py
computes them when /metrics is read.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess

MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")

# Seconds; the move p99 alert's 250 ms sits on a bucket edge.
_MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_TASK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

MOVES = Counter("catan_moves_total", "Moves submitted, by result: accepted or the refusal's code.", ["result"])
MOVE_DURATION = Histogram(
    "catan_move_duration_seconds",
    "Time a move spends in each stage (lock, apply, commit, fan-out) and in all (total).",
    ["stage"],
    buckets=_MOVE_BUCKETS,
)
SOCKETS_OPEN = Gauge(
    "catan_sockets_open", "Game sockets open now, all server processes.", multiprocess_mode="livesum"
)
MAIL_SENT = Counter("catan_mail_sent_total", "Emails sent, by kind.", ["kind"])
MAIL_FAILED = Counter("catan_mail_failed_total", "Emails whose sending failed, by kind.", ["kind"])
TASK_DURATION = Histogram(
    "catan_task_duration_seconds", "Celery task run time, by task name.", ["task"], buckets=_TASK_BUCKETS
)
BOT_DECISION = Histogram(
    "catan_bot_decision_seconds", "Time a bot takes to decide a move, by level.", ["level"], buckets=_TASK_BUCKETS
)
HTTP_REQUESTS = Counter(
    "catan_http_requests_total", "HTTP requests by route template and status code.", ["route", "status"]
)
BEAT_LAST_TICK = Gauge(
    "catan_beat_last_tick_timestamp",
    "Unix time of the last periodic task that beat sent and a worker ran.",
    multiprocess_mode="max",
)

MOVE_STAGES = ("lock", "apply", "commit", "fan-out", "total")

# Every series name the site exports (histograms add _bucket, _sum and _count), for the rules and dashboard check.
EXPORTED = (
    "catan_moves_total",
    "catan_move_duration_seconds",
    "catan_sockets_open",
    "catan_games_active",
    "catan_mail_sent_total",
    "catan_mail_failed_total",
    "catan_outbox_oldest_seconds",
    "catan_celery_queue_length",
    "catan_task_duration_seconds",
    "catan_bot_decision_seconds",
    "catan_http_requests_total",
    "catan_beat_last_tick_timestamp",
)


def move_finished(result: str, stages: Iterable[tuple[str, float]] = ()) -> None:
    """One move answered: its result, and (accepted moves) the seconds of each stage, recorded after the commit."""
    MOVES.labels(result).inc()
    for stage, seconds in stages:
        MOVE_DURATION.labels(stage).observe(seconds)


def move_accepted(stamps: list[float]) -> None:
    """An accepted move with its perf_counter stamps: start, locked, applied, committed, fanned out. Fewer stamps
    (committed inside a caller's transaction, whose commit is still to come): counted without its stages."""
    if len(stamps) != 5:
        move_finished("accepted")
        return
    spans = [(stage, b - a) for stage, a, b in zip(MOVE_STAGES, stamps, stamps[1:], strict=False)]
    move_finished("accepted", [*spans, ("total", stamps[4] - stamps[0])])


def beat_ticked() -> None:
    BEAT_LAST_TICK.set(time.time())


def registry() -> CollectorRegistry:
    """The registry a scrape reads: every process's files in multiprocess mode, this process's series otherwise."""
    if MULTIPROC_DIR:
        collected = CollectorRegistry()
        multiprocess.MultiProcessCollector(collected, path=MULTIPROC_DIR)
        return collected
    return REGISTRY


def exposition(extra: CollectorRegistry | None = None) -> bytes:
    """The text format of every series, with `extra` (figures read at scrape time) appended."""
    text = generate_latest(registry())
    if extra is not None:
        text += generate_latest(extra)
    return text


def process_exited(pid: int) -> None:
    """A server or worker process ended: its live gauges stop counting (gunicorn-style child_exit)."""
    if MULTIPROC_DIR:
        multiprocess.mark_process_dead(pid, MULTIPROC_DIR)
