"""Sending one outbox row, once: claim it in a short transaction that locks only that row, check it is still wanted
(not stale, its reader not at the table: games/mail/holding.py), commit, and only then talk to SMTP and the push
services, with no lock held. A failure is recorded on the row and retried; the flusher sends what no task did."""

from __future__ import annotations

import logging
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

import rules
from infra import logs, metrics

from .. import clocks, outbox
from ..models import Game, Notification
from . import holding, push
from .kinds import DECISION_KINDS
from .rendering import render

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8


def message_id(notification: Notification) -> str:
    """The same Message-ID for every try of one row: a mail sent twice (a worker killed after SMTP accepted it,
    before the row was marked) is folded into one by mail clients."""
    domain = urlsplit(settings.SITE_URL).hostname or "catan.localhost"
    return f"<notification-{notification.pk}-{notification.game_id}-{notification.seq}@{domain}>"


def still_pending(notification: Notification) -> bool:
    """Whether the decision the row announces is still the user's to make (checked just before sending)."""
    if notification.kind not in DECISION_KINDS:
        return True
    game = Game.objects.only("status", "state", "seq").get(pk=notification.game_id)
    if game.status != Game.Status.ACTIVE or not game.state:
        return False
    if notification.kind == Notification.Kind.REMINDER and game.seq != notification.seq:
        return False
    seat = game.seats.filter(user_id=notification.user_id).values_list("index", flat=True).first()
    return seat is not None and seat in rules.to_move(rules.load(game.state))


def _claim(pk: int) -> tuple[Notification | None, str]:
    """Claim a due row in a short transaction of its own that locks only that row (never the game or the user),
    so that the SMTP conversation that follows holds no lock at all."""
    now = clocks.now()
    with transaction.atomic():
        notification = Notification.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
        if notification is None:
            return None, "missing or busy"
        # This task's lines name the row and the move that wrote it: a retry by the flusher hours later too.
        logs.bind(game_id=notification.game_id, kind=notification.kind)
        if notification.request_id:  # a row written outside any request keeps the task's own
            logs.bind(request_id=notification.request_id)
        if notification.sent_at is not None:
            return None, "already sent"
        if notification.dropped_at is not None:
            return None, "dropped"
        if notification.send_after > now:
            return None, "not yet"
        if notification.claimed_until is not None and notification.claimed_until > now:
            return None, "in progress"
        if notification.attempts >= MAX_ATTEMPTS:
            return None, "gave up"
        held = holding.hold(notification, DECISION_KINDS)
        if held.seen or not still_pending(notification):
            notification.dropped_at = now
            notification.save(update_fields=["dropped_at"])
            return None, "dropped"
        if held.seconds > 0:  # its reader is at the table, or left it less than the grace ago
            notification.send_after = holding.held_until(now, held)
            notification.save(update_fields=["send_after"])
            transaction.on_commit(lambda: outbox.enqueue(outbox.NOTIFICATION_TASK, (pk,), countdown=held.seconds))
            return None, "held"
        notification.attempts += 1
        notification.claimed_until = now + timedelta(seconds=3 * settings.EMAIL_TIMEOUT + 30)
        notification.save(update_fields=["attempts", "claimed_until"])
    return notification, "claimed"


def send(pk: int) -> str:
    """Send one row if it is due, unsent and still pending: claim it, commit, then talk to SMTP (with
    EMAIL_TIMEOUT). A failure is recorded on the row (attempts, last error) and raised for the task's retry."""
    notification, outcome = _claim(pk)
    if notification is None:
        return outcome
    try:
        row = Notification.objects.select_related("game", "user").get(pk=pk)
        by_email, by_push = push.channels(row)
        if not (by_email or by_push or row.pushed_at):  # its reader wants no notice of this game now ("none")
            Notification.objects.filter(pk=pk).update(dropped_at=clocks.now(), claimed_until=None)
            return "dropped"
        if by_push:
            push.deliver(row, DECISION_KINDS)
            Notification.objects.filter(pk=pk).update(pushed_at=clocks.now())
        if by_email:
            message = render(row)
            message.extra_headers["Message-ID"] = message_id(notification)
            message.send()
    except Exception as error:
        failure = f"{type(error).__name__}: {error}"[:300]
        Notification.objects.filter(pk=pk).update(last_error=failure, claimed_until=None)
        metrics.MAIL_FAILED.labels(notification.kind).inc()
        raise
    Notification.objects.filter(pk=pk).update(sent_at=clocks.now(), claimed_until=None, last_error="")
    metrics.MAIL_SENT.labels(notification.kind).inc()
    return "sent"


def flush(limit: int = 200) -> int:
    """Send due rows that no task sent (broker outage, restart, quiet hours); the beat runs this every minute.
    Rows tried least come first, and rows that failed MAX_ATTEMPTS times are left (their error is recorded), so
    a few broken rows never starve the others."""
    now = clocks.now()
    due = (
        Notification.objects.filter(
            sent_at__isnull=True, dropped_at__isnull=True, digest=False, send_after__lte=now, attempts__lt=MAX_ATTEMPTS
        )
        .exclude(claimed_until__gt=now)
        .order_by("attempts", "send_after")
    )
    count = 0
    for pk in due.values_list("pk", flat=True)[:limit]:
        try:
            if send(pk) == "sent":
                count += 1
        except Exception:
            logger.warning("notification %s failed; it stays in the outbox", pk, exc_info=True)
    return count
