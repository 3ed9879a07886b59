"""Celery tasks: one call each, named after what they do. The outbox queues them by name after commits."""

from __future__ import annotations

from celery import shared_task

from infra import logs

from . import services
from .mail import notifications

log = logs.get_logger(__name__)


@shared_task(name="games.bot_play")
def bot_play(game_id: int, seq: int | None = None) -> bool:
    """One bot move, unless the game moved on since `seq`; the move's own commit queues the next bot turn if a
    bot must act again."""
    logs.bind(game_id=game_id)
    return services.bot_play_once(game_id, seq)


@shared_task(name="games.bots_sweep")
def bots_sweep() -> int:
    return services.bots_sweep()


@shared_task(
    name="games.notification_send",
    autoretry_for=(OSError, ConnectionError),
    retry_backoff=30,
    retry_backoff_max=3600,
    max_retries=8,
)
def notification_send(notification_id: int) -> str:
    """Send one outbox row; SMTP failures retry with backoff, and a sent row is never sent again."""
    outcome = notifications.send(notification_id)  # binds the row's game, kind and request id to this task's lines
    log.info("notification_send", notification_id=notification_id, outcome=outcome)
    return outcome


@shared_task(name="games.notifications_flush")
def notifications_flush() -> int:
    return notifications.flush()


@shared_task(name="games.notifications_digest")
def notifications_digest() -> int:
    return notifications.send_digests()


@shared_task(name="games.clocks_tick")
def clocks_tick() -> dict[str, int]:
    return services.tick_all()


@shared_task(name="games.invitation_send", autoretry_for=(OSError,), retry_backoff=30, max_retries=5)
def invitation_send(game_id: int, address: str, inviter: str, language: str) -> None:
    services.invitation_send(game_id=game_id, address=address, inviter=inviter, language=language)


@shared_task(name="games.turn_timeout")
def turn_timeout(game_id: int, seq: int) -> str:
    logs.bind(game_id=game_id)
    return services.turn_timeout(game_id, seq)

