"""Writing the outbox rows (issue "Play by email", issue 42): a move's notices in the move's own transaction, so a
move is never stored without its notice, even when Redis, SMTP or a push service is down; at most one pending
decision notice per player and game; the single notices (the start, chat, a timeout played). Each row goes by email,
push or both, as its reader chose for its game (games/mail/push.py). After commit the outbox queues a task per row due
now (games/outbox.py); the flusher finds the rest."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

import rules

from .. import clocks, outbox
from ..models import Game, Notification, Seat
from . import push
from .kinds import DECISION_KINDS, IMMEDIATE_KINDS, decision_kind
from .quiet_hours import send_after


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
