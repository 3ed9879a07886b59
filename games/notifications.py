"""Play-by-email notifications: durable outbox rows written with each move, sent once each.

A row is created in the move's own transaction, so a move is never stored without its notification, even
when Redis or SMTP is down. After commit a Celery task is queued to send it; if queueing fails, the beat
flusher finds the row later. Sending locks the row and skips it if already sent: a retried task never
sends twice. Quiet hours move `send_after`; digest users get one daily mail instead.
"""

from __future__ import annotations

import logging
import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

import rules
from rules.svg import board_svg

from . import clock
from .links import login_url, unsubscribe_url
from .models import Game, Notification
from .summaries import since_last_turn

logger = logging.getLogger(__name__)

PHASE_KINDS = {
    "discard": Notification.Kind.DISCARD,
    "gold": Notification.Kind.GOLD,
}


def decision_kind(state: rules.State, seat: int) -> str:
    if state.phase == "game_over":
        return Notification.Kind.GAME_OVER
    if state.trade is not None and seat != state.current:
        return Notification.Kind.TRADE
    if state.phase in PHASE_KINDS:
        return PHASE_KINDS[state.phase]
    if seat == state.current:
        return Notification.Kind.TURN
    return Notification.Kind.DECISION


def quiet_until(user, moment: datetime) -> datetime:
    """The end of the user's quiet hours if `moment` falls inside them, else `moment`."""
    start, end = user.quiet_start, user.quiet_end
    if start is None or end is None or start == end:
        return moment
    local = moment.astimezone(zoneinfo.ZoneInfo(user.time_zone or "UTC"))
    t = local.time()
    inside = start <= t < end if start < end else (t >= start or t < end)
    if not inside:
        return moment
    release = local.replace(hour=end.hour, minute=end.minute, second=0, microsecond=0)
    if release <= local:
        release += timedelta(days=1)
    return release.astimezone(zoneinfo.ZoneInfo("UTC"))


def create_for_move(
    game: Game, state: rules.State, seq: int, kind: str | None = None, mover=None, seats=None
) -> list[int]:
    """Outbox rows for every human who must act now (or everyone at the end), except the player who just
    moved and is still on the page. Call inside the move's transaction; returns the ids to queue after commit."""
    if game.clock != Game.Clock.ASYNC:
        return []
    seats = {i: s for i, s in (seats or {s.index: s for s in game.seats.select_related("user")}).items() if s.user_id}
    if state.phase == "game_over":
        targets = list(seats)
    else:
        targets = [s for s in rules.to_move(state) if s in seats]
    moment = clock.now()
    ids = []
    for index in targets:
        user = seats[index].user
        if user.notify == user.Notify.NONE or not user.email:
            continue
        if mover is not None and user.pk == mover.pk and state.phase != "game_over":
            continue
        notification, created = Notification.objects.get_or_create(
            game=game,
            seq=seq,
            user=user,
            kind=kind or decision_kind(state, index),
            defaults={
                "created_at": moment,
                "send_after": quiet_until(user, moment),
                "digest": user.notify == user.Notify.DIGEST,
            },
        )
        if created and not notification.digest:
            ids.append(notification.pk)
    return ids


def create_single(game: Game, user, kind: str) -> None:
    """One row for one user (a timeout notice), queued after commit."""
    if user is None or game.clock != Game.Clock.ASYNC or user.notify == user.Notify.NONE or not user.email:
        return
    moment = clock.now()
    notification, created = Notification.objects.get_or_create(
        game=game,
        seq=game.seq,
        user=user,
        kind=kind,
        defaults={
            "created_at": moment,
            "send_after": quiet_until(user, moment),
            "digest": user.notify == user.Notify.DIGEST,
        },
    )
    if created and not notification.digest:
        transaction.on_commit(lambda: queue([notification.pk]))


def queue(ids: list[int]) -> None:
    """After commit: hand each row to Celery. A broker outage is logged; the flusher sends the rows later."""
    from .tasks import notification_send

    for pk in ids:
        try:
            notification = Notification.objects.get(pk=pk)
            delay = max(0.0, (notification.send_after - clock.now()).total_seconds())
            notification_send.apply_async((pk,), countdown=delay)
        except Exception:
            logger.warning("could not queue notification %s; the flusher will send it", pk, exc_info=True)


def render(notification: Notification) -> EmailMultiAlternatives:
    game = notification.game
    user = notification.user
    seat = game.seats.get(user=user)
    state = rules.load(game.state)
    with translation.override(user.language):
        view = rules.view(state, seat.index)
        context = {
            "user": user,
            "game": game,
            "kind": notification.get_kind_display(),
            "lines": since_last_turn(game, seat.index),
            "link": login_url(user, game.pk),
            "unsubscribe": unsubscribe_url(user),
            "deadline": game.deadline,
            "site": settings.SITE_URL,
        }
        subject = render_to_string("emails/notification_subject.txt", context).strip()
        text = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    headers = {"List-Unsubscribe": f"<{context['unsubscribe']}>"}
    message = EmailMultiAlternatives(subject, text, to=[user.email], headers=headers)
    message.attach_alternative(html, "text/html")
    message.attach("board.svg", board_svg(view["board"], view["pieces"]), "image/svg+xml")
    return message


def send(pk: int) -> str:
    """Send one row if it is due and unsent. Idempotent: the row lock makes concurrent tries wait, then skip."""
    with transaction.atomic():
        notification = Notification.objects.select_for_update().select_related("game", "user").filter(pk=pk).first()
        if notification is None:
            return "missing"
        if notification.sent_at is not None:
            return "already sent"
        if notification.send_after > clock.now():
            return "not yet"
        notification.attempts += 1
        try:
            render(notification).send()
        except Exception as error:
            Notification.objects.filter(pk=pk).update(attempts=notification.attempts, last_error=str(error)[:300])
            raise
        notification.sent_at = clock.now()
        notification.save(update_fields=["sent_at", "attempts"])
    return "sent"


def flush(limit: int = 200) -> int:
    """Send due rows that no task sent (broker outage, restart); the beat runs this every minute."""
    due = Notification.objects.filter(sent_at__isnull=True, digest=False, send_after__lte=clock.now())
    count = 0
    for pk in due.values_list("pk", flat=True)[:limit]:
        try:
            if send(pk) == "sent":
                count += 1
        except Exception:
            logger.warning("notification %s failed; it stays in the outbox", pk, exc_info=True)
    return count


def send_digests() -> int:
    """One mail per digest user listing the games waiting on them; their rows count as sent."""
    pending = Notification.objects.filter(sent_at__isnull=True, digest=True, send_after__lte=clock.now())
    users = {}
    for notification in pending.select_related("user", "game"):
        users.setdefault(notification.user, []).append(notification)
    sent = 0
    for user, rows in users.items():
        games = sorted({n.game for n in rows}, key=lambda g: g.pk)
        with translation.override(user.language):
            context = {
                "user": user,
                "games": [{"game": g, "link": login_url(user, g.pk)} for g in games],
                "unsubscribe": unsubscribe_url(user),
            }
            subject = render_to_string("emails/digest_subject.txt", context).strip()
            text = render_to_string("emails/digest.txt", context)
            html = render_to_string("emails/digest.html", context)
        message = EmailMultiAlternatives(subject, text, to=[user.email])
        message.attach_alternative(html, "text/html")
        message.send()
        Notification.objects.filter(pk__in=[n.pk for n in rows]).update(sent_at=clock.now())
        sent += 1
    return sent
