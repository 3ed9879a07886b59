"""Celery's task signals, connected once the app registry is ready (ops/apps.py): each task's run time, and the
time of the last periodic task a worker ran (beat's heartbeat as the site sees it: beat sent it, a worker ran it)."""

from __future__ import annotations

import time
from typing import Any

from celery.signals import task_postrun, task_prerun
from django.conf import settings

from infra import metrics

_started: dict[str, float] = {}


def _periodic() -> set[str]:
    return {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


@task_prerun.connect
def _task_started(task_id: str | None = None, **_kwargs: Any) -> None:
    if task_id is not None:
        _started[task_id] = time.perf_counter()


@task_postrun.connect
def _task_ended(task_id: str | None = None, task: Any = None, **_kwargs: Any) -> None:
    started = _started.pop(task_id, None) if task_id is not None else None
    name = getattr(task, "name", None) or "unknown"
    if started is not None:
        metrics.TASK_DURATION.labels(name).observe(time.perf_counter() - started)
    if name in _periodic():
        metrics.beat_ticked()
