"""Figures read at scrape time, for /metrics and the operator's page: games active by clock, the oldest email
waiting to be sent, and the Celery queue lengths on the broker."""

from __future__ import annotations

from typing import Any

import redis
from django.conf import settings
from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client import CollectorRegistry, Gauge

from games.models import Game, Notification


def _queues() -> tuple[str, ...]:
    return ("celery", settings.BOT_QUEUE)


def games_active() -> dict[str, int]:
    counts = dict.fromkeys(Game.Clock.values, 0)
    rows = Game.objects.filter(status=Game.Status.ACTIVE).values("clock").annotate(n=Count("id"))
    counts.update({row["clock"]: row["n"] for row in rows})
    return counts


def outbox_oldest_seconds() -> float:
    """How long the oldest email due now and not yet sent (nor dropped) has waited; 0 when none waits."""
    now = timezone.now()
    oldest = Notification.objects.filter(
        sent_at__isnull=True, dropped_at__isnull=True, digest=False, send_after__lte=now
    ).aggregate(oldest=Min("send_after"))["oldest"]
    return max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0


def queue_lengths() -> dict[str, int | None]:
    """Messages waiting in each Celery queue (a Redis list per queue); None when the broker can't be read (or is
    not Redis: eager Celery without a broker has no queue)."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return {}
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
    try:
        return {queue: int(client.llen(queue)) for queue in _queues()}
    except (redis.RedisError, OSError):
        return dict.fromkeys(_queues())
    finally:
        client.close()


def figures() -> dict[str, Any]:
    return {
        "games_active": games_active(),
        "outbox_oldest_seconds": outbox_oldest_seconds(),
        "queue_length": queue_lengths(),
    }


def scrape_registry() -> CollectorRegistry:
    """The scrape-time figures as Prometheus gauges in a registry of their own."""
    found = figures()
    registry = CollectorRegistry()
    active = Gauge("catan_games_active", "Games in progress, by clock.", ["clock"], registry=registry)
    for clock, n in found["games_active"].items():
        active.labels(clock).set(n)
    Gauge(
        "catan_outbox_oldest_seconds", "Age of the oldest email due and not yet sent.", registry=registry
    ).set(found["outbox_oldest_seconds"])
    queued = Gauge("catan_celery_queue_length", "Messages waiting in a Celery queue.", ["queue"], registry=registry)
    for queue, n in found["queue_length"].items():
        if n is not None:
            queued.labels(queue).set(n)
    return registry
