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
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Max, Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

import rules
from infra import metrics
from rules.ai.autoplay import offered_verbs
from rules.svg import board_svg

from .. import clocks, outbox
from ..models import Game, Notification, Seat
from . import holding, push
from .links import action_url, login_url, reply_address, unsubscribe_url
from .summaries import decision, seat_names, since_last_turn, timed_out

logger = logging.getLogger(__name__)

# Kinds that announce a decision: stale once the seat no longer owes one.
DECISION_KINDS = {
    Notification.Kind.TURN,
    Notification.Kind.DISCARD,
    Notification.Kind.TRADE,
    Notification.Kind.GOLD,
    Notification.Kind.DECISION,
    Notification.Kind.REMINDER,
}

# Sent at once, even to digest readers and in quiet hours: later would be after the clock ran out.
IMMEDIATE_KINDS = {Notification.Kind.REMINDER, Notification.Kind.TIMEOUT}

VERB_LABELS = {
    "accept": _("Accept the trade"),
    "reject": _("Reject the trade"),
    "roll": _("Roll the dice"),
    "end": _("End your turn"),
    "discard": _("Discard"),
}

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


def send_after(user, kind: str | None, moment: datetime) -> datetime:
    """When a row may go: reminders and timeout notices at once (held by quiet hours, a reminder would come after
    the deadline it warns of), the rest after the reader's quiet hours."""
    if kind in IMMEDIATE_KINDS:
        return moment
    return quiet_until(user, moment)


def create_for_move(
    game: Game,
    state: rules.State,
    seq: int,
    kind: str | None = None,
    mover=None,
    seats=None,
    previous_to_move: list[int] | None = None,
    previous_turn: tuple[int, int] | None = None,
) -> list[int]:
    """Outbox rows for the people a move newly asks to act (or everyone at the end), except the player who just
    moved and is still on the page. Someone who already owed a decision is not mailed again because others
    answered; the player whose turn it is is told once per turn. A new row replaces any unsent one of the same
    player in the same game: at most one pending email each. Call inside the move's transaction; returns the ids
    due now, for the outbox to queue after commit (the flusher sends those held by quiet hours)."""
    if game.clock != Game.Clock.ASYNC:
        return []
    seats = {i: s for i, s in (seats or {s.index: s for s in game.seats.select_related("user")}).items() if s.user_id}
    if state.phase == "game_over":
        targets = list(seats)
    else:
        targets = [s for s in rules.to_move(state) if s in seats]
        if previous_to_move is not None:
            # (turn number, current player) before the move: a new pair is a new turn (set-up turns included).
            new_turn = previous_turn != (state.turn, state.current)
            targets = [s for s in targets if (new_turn if s == state.current else s not in previous_to_move)]
    if mover is not None and state.phase != "game_over":
        targets = [index for index in targets if seats[index].user.pk != mover.pk]
    return _create_rows(game, state, seq, seats, targets, kind)


def _create_rows(
    game: Game, state: rules.State, seq: int, seats: dict, targets: list[int], kind: str | None
) -> list[int]:
    """A row per target seat's user (unless they want no mail), each replacing their unsent one; the ids due now."""
    moment = clocks.now()
    ids = []
    for index in targets:
        user = seats[index].user
        defaults = _row_defaults(user, seats[index], kind, moment)
        if defaults is None:
            continue
        notification, created = Notification.objects.get_or_create(
            game=game, seq=seq, user=user, kind=kind or decision_kind(state, index), defaults=defaults
        )
        if not created:
            continue
        Notification.objects.filter(
            game=game, user=user, sent_at__isnull=True, dropped_at__isnull=True, kind__in=DECISION_KINDS
        ).exclude(pk=notification.pk).update(dropped_at=moment)
        _absorb_timeouts(notification, moment)
        if not notification.digest and notification.send_after <= moment:
            ids.append(notification.pk)
    return ids


def _row_defaults(user, seat, kind: str | None, moment: datetime) -> dict | None:
    """A new row's fields for this reader of this game (`seat`: theirs, None when they no longer hold one), or None
    when they want no notice of it at all: by email (as `notify` says) nor by push; or an inactive (suspended,
    banned) account. Only an email reader's rows are digests: a push goes at once."""
    if not user.is_active or not (push.wants_email(user, seat) or push.wants_push(user, seat)):
        return None
    return {
        "created_at": moment,
        "send_after": send_after(user, kind, moment),
        "digest": user.notify == user.Notify.DIGEST
        and (kind or "") not in IMMEDIATE_KINDS
        and push.wants_email(user, seat),
    }


def _absorb_timeouts(notification: Notification, moment: datetime) -> None:
    """Fold the reader's unsent timeout notices of this game into `notification`, whose email then says first what
    the timeout played (`render` lists the timeout moves no earlier email told): one email, not two in the same
    minute. Only when it goes as soon as they would (not a digest, not held by quiet hours), and never a notice
    already sent or being sent (claimed): that one stands, and the next email does not repeat it."""
    if notification.digest or notification.kind == Notification.Kind.TIMEOUT:
        return
    Notification.objects.filter(
        game_id=notification.game_id,
        user_id=notification.user_id,
        kind=Notification.Kind.TIMEOUT,
        sent_at__isnull=True,
        dropped_at__isnull=True,
        send_after__gte=notification.send_after,
    ).exclude(claimed_until__gt=moment).update(dropped_at=moment)


def create_after_email_decision(game_id: int, user) -> None:
    """A decision made from an email (a link, a reply) leaves its player away from the board: when it leaves them
    still to act (a roll, and now the rest of the turn), the next email tells them so, with its own links. Call
    after the move committed; locks the game only for the row's write."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id, status=Game.Status.ACTIVE).first()
        if game is None or game.clock != Game.Clock.ASYNC or not game.state:
            return
        seat = game.seats.select_related("user").filter(user=user).first()
        state = rules.load(game.state)
        if seat is None or seat.index not in rules.to_move(state):
            return
        ids = _create_rows(game, state, game.seq, {seat.index: seat}, [seat.index], None)
        outbox.notifications_due_after_commit(ids)


def create_single(game: Game, user, kind: str, seq: int | None = None, seat: Seat | None = None) -> None:
    """One row for one user (a timeout notice, the start, chat), queued after commit, by email or push as they
    chose for this game (`seat`: theirs, looked up when not given). Chat waits in one row per player and game
    until sent. `seq`: the move the row is about (default the game's; a timeout's notice comes after the moves it
    played). A timeout notice while the reader's decision notice still waits, unsent, for a decision they still
    owe is folded into a decision notice (at most one pending notice per player and game)."""
    if user is None or game.clock != Game.Clock.ASYNC:
        return
    if seat is None:
        seat = Seat.objects.filter(game=game, user=user).first()
    moment = clocks.now()
    defaults = _row_defaults(user, seat, kind, moment)
    if defaults is None:
        return
    if kind == Notification.Kind.CHAT and Notification.objects.filter(
        game=game, user=user, kind=kind, sent_at__isnull=True, dropped_at__isnull=True
    ).exists():
        return
    seq = game.seq if seq is None else seq
    notification, created = Notification.objects.get_or_create(
        game=game, seq=seq, user=user, kind=kind, defaults=defaults
    )
    if not created:
        return
    if kind == Notification.Kind.TIMEOUT:
        _merge_into_waiting_decision(game, user, seq, moment)
        notification.refresh_from_db(fields=["dropped_at"])
    if notification.dropped_at is None and not notification.digest and notification.send_after <= moment:
        outbox.notifications_due_after_commit([notification.pk])


def _merge_into_waiting_decision(game: Game, user, seq: int, moment: datetime) -> None:
    """A timeout notice while a decision email to the same reader waits unsent: one email for both, about the
    decision they owe now (a fresh row at move `seq`, whose links are current; it replaces the older one)."""
    waiting = Notification.objects.filter(
        game=game, user=user, sent_at__isnull=True, dropped_at__isnull=True, kind__in=DECISION_KINDS
    ).exclude(claimed_until__gt=moment)
    if not waiting.exists():
        return
    current = Game.objects.only("state", "status").get(pk=game.pk)
    seat = game.seats.select_related("user").filter(user=user).first()
    if current.status != Game.Status.ACTIVE or not current.state or seat is None:
        return
    state = rules.load(current.state)
    if seat.index not in rules.to_move(state):
        return  # the waiting email is stale (dropped when its turn comes): the timeout notice goes alone
    row = waiting.filter(seq=seq, kind=decision_kind(state, seat.index)).first()
    if row is not None:  # already about the current position
        _absorb_timeouts(row, moment)
        return
    ids = _create_rows(game, state, seq, {seat.index: seat}, [seat.index], None)
    outbox.notifications_due_after_commit(ids)


def unsubscribe_headers(user) -> dict[str, str]:
    """RFC 2369 and RFC 8058: mail clients offer an unsubscribe button that POSTs to the link in one click."""
    return {"List-Unsubscribe": f"<{unsubscribe_url(user)}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def _decision(view: dict, kind: str, names: dict[int, str]) -> str:
    if kind == Notification.Kind.TURN and view.get("current") == view["viewer"] and view["phase"] == "main":
        if view.get("dice"):  # rolled from an email: the rest of the turn is theirs
            return str(_("You rolled %(n)s: now build or end your turn.") % {"n": sum(view["dice"])})
    return decision(view, kind, names)


def seat_deadline(seat, state: rules.State) -> datetime | None:
    """The reader's own deadline (each seat has its own: discards, trade replies), or None when that seat owes
    nothing now (a "game started" mail to someone who moves later, a timeout already played out)."""
    if seat is None or state.phase == "game_over" or seat.index not in rules.to_move(state):
        return None
    return seat.deadline


def emailed_up_to(notification: Notification) -> int:
    """The last move the other emails to this reader about this game told them of (each tells up to its own row's
    move): those sent, and those being sent now. 0 before the first; digests list games, not moves."""
    now = clocks.now()
    others = (
        Notification.objects.filter(game_id=notification.game_id, user_id=notification.user_id, digest=False)
        .filter(Q(sent_at__isnull=False) | Q(claimed_until__gt=now, dropped_at__isnull=True))
        .exclude(pk=notification.pk)
    )
    return others.aggregate(seq=Max("seq"))["seq"] or 0


def render(notification: Notification) -> EmailMultiAlternatives:
    game = notification.game
    user = notification.user
    # A timeout may have handed the seat to a bot ("replace"): the mail then says so without a private view.
    seat = game.seats.filter(user=user).first()
    index = seat.index if seat is not None else None
    state = rules.load(game.state)
    with translation.override(user.language):
        view = rules.view(state, index)
        names = seat_names(game)
        # Each email tells what happened up to its own move, from where the earlier emails to its reader stopped.
        upto, after = notification.seq, emailed_up_to(notification)
        timed_out_lines, timed_out_seqs = timed_out(game, index, after, upto, names)
        chat = []
        if notification.kind == Notification.Kind.CHAT:
            recent = game.chat.filter(hidden=False).exclude(user=user).select_related("user").order_by("-created_at")
            chat = [f"{m.user.label if m.user else '?'}: {m.text}" for m in reversed(recent[:10])]
        actions = []
        if index is not None and notification.seq == game.seq and notification.kind in DECISION_KINDS:
            actions = [(VERB_LABELS[v], action_url(notification.action_code, v)) for v in offered_verbs(state, index)]
        context = {
            "actions": actions,
            "reply_to": reply_address(notification.action_code) if actions else None,
            "user": user,
            "game": game,
            "kind": notification.get_kind_display(),
            "decision": _decision(view, notification.kind, names),
            "timed_out": timed_out_lines,
            "chat": chat,
            "lines": since_last_turn(game, index, names, after, upto, timed_out_seqs) if index is not None else [],
            "link": login_url(user, game.pk),
            "unsubscribe": unsubscribe_url(user),
            "deadline": seat_deadline(seat, state),
            "time_zone": user.time_zone or "UTC",
            "site": settings.SITE_URL,
        }
        subject = " ".join(render_to_string("emails/notification_subject.txt", context).split())
        text = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    reply_to = [context["reply_to"]] if context["reply_to"] else None
    message = EmailMultiAlternatives(
        subject, text, to=[user.email], headers=unsubscribe_headers(user), reply_to=reply_to
    )
    message.attach_alternative(html, "text/html")
    svg = board_svg(view["board"], view["pieces"])
    # Most mail clients show no SVG: the board goes as a picture they all show. cairosvg is imported here, where
    # it is used: at the module's top it cost every web server a quarter of a second at start.
    import cairosvg

    message.attach("board.png", cairosvg.svg2png(bytestring=svg.encode(), output_width=600), "image/png")
    return message


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


def digest_due(user, moment: datetime) -> bool:
    """Whether it is the hour of the day, in the user's time zone, at which they asked for their digest."""
    return moment.astimezone(zoneinfo.ZoneInfo(user.time_zone or "UTC")).hour == user.digest_hour


def send_digests(every_hour: bool = False) -> int:
    """One mail per digest user listing the games waiting on them; their rows count as sent. Beat runs this at
    the top of every hour: each user gets theirs at their own local hour (`every_hour` sends all now)."""
    moment = clocks.now()
    pending = Notification.objects.filter(
        sent_at__isnull=True, dropped_at__isnull=True, digest=True, send_after__lte=moment
    )
    users = {}
    for notification in pending.select_related("user", "game"):
        if not (every_hour or digest_due(notification.user, moment)):
            continue
        if not still_pending(notification):  # decided since (on the page, by a timeout): not worth listing
            Notification.objects.filter(pk=notification.pk).update(dropped_at=moment)
            continue
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
        message = EmailMultiAlternatives(subject, text, to=[user.email], headers=unsubscribe_headers(user))
        message.attach_alternative(html, "text/html")
        message.send()
        Notification.objects.filter(pk__in=[n.pk for n in rows]).update(sent_at=clocks.now())
        sent += 1
    return sent
