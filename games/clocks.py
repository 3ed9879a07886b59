"""Clocks of play-by-email games: deadlines, reminders, timeouts with the game's policy, and vacations."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction

import rules
from rules.ai import move_for

from . import clock, notifications
from .models import Game, Notification, Seat


def deadline_for(game: Game, state: rules.State, seats: dict[int, Seat]) -> object:
    """The deadline of the decision now due, or None when no person must act (or the game is live)."""
    if game.clock != Game.Clock.ASYNC or game.status != Game.Status.ACTIVE or not game.move_seconds:
        return None
    humans = [seats[s] for s in rules.to_move(state) if s in seats and seats[s].user_id]
    if not humans:
        return None
    start = clock.now()
    for seat in humans:
        if seat.vacation_until and seat.vacation_until > start:
            start = seat.vacation_until  # the clock only starts once they are back
    return start + timedelta(seconds=game.move_seconds)


def reminder_due(game: Game) -> bool:
    if game.deadline is None or game.reminded_seq == game.seq:
        return False
    return clock.now() >= game.deadline - timedelta(seconds=game.move_seconds / 4)


def timeout_action(state: rules.State, seat: int, policy: str) -> dict:
    legal = rules.legal_actions(state, seat)
    if policy == "skip":  # finish the turn as quickly as possible
        for wanted in ({"type": "end_turn"}, {"type": "roll"}, {"type": "reject_trade"}, {"type": "cancel_trade"}):
            if wanted in legal:
                return wanted
    return move_for(state, seat, "medium", seed=state.version)


def tick(game_id: int) -> str:
    """One look at a game's clock: send its reminder, or apply its timeout policy. Returns what it did."""
    from . import services

    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE or game.deadline is None:
            return "idle"
        state = rules.load(game.state)
        seats = {s.index: s for s in game.seats.select_related("user")}
        due = [s for s in rules.to_move(state) if s in seats and seats[s].user_id]
        now = clock.now()
        if any(seats[s].vacation_until and seats[s].vacation_until > now for s in due):
            return "vacation"
        if now >= game.deadline and due:
            seat = due[0]
            policy = game.timeout_policy
            prefix = [{"type": "timeout", "seat": seat, "policy": policy}]
            if policy == "replace":
                user = seats[seat].user
                Seat.objects.filter(pk=seats[seat].pk).update(user=None, bot=Seat.Bot.MEDIUM)
                prefix.append({"type": "seat_replaced", "seat": seat, "bot": Seat.Bot.MEDIUM})
                notify_user = user
            else:
                notify_user = seats[seat].user
            action = timeout_action(state, seat, policy)
            services.system_move(game=game, state=state, seat=seat, action=action, prefix_events=prefix)
            notifications.create_single(game, notify_user, Notification.Kind.TIMEOUT)
            return f"timeout:{policy}"
        if reminder_due(game):
            game.reminded_seq = game.seq
            game.save(update_fields=["reminded_seq"])
            ids = notifications.create_for_move(game, state, game.seq, kind=Notification.Kind.REMINDER)
            transaction.on_commit(lambda: notifications.queue(ids))
            return "reminded"
    return "waiting"


def tick_all() -> dict[str, int]:
    counts: dict[str, int] = {}
    due = Game.objects.filter(status=Game.Status.ACTIVE, clock=Game.Clock.ASYNC, deadline__isnull=False)
    for game_id in due.values_list("pk", flat=True):
        result = tick(game_id)
        counts[result] = counts.get(result, 0) + 1
    return counts


def vacation_start(*, game_id: int, user, days: int) -> Seat:
    """Pause this player's clock for `days`, within the per-game limit; others see it on the seat."""
    from .errors import GameError

    if type(days) is not int or days < 1:
        raise GameError("bad_days", "Vacation lasts a whole number of days, at least one.")
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise GameError("not_found", "No such game.", status=404)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise GameError("not_a_player", "You have no seat in this game.", status=403)
        limit = settings.VACATION_LIMIT_DAYS * 86400
        if seat.vacation_used_seconds + days * 86400 > limit:
            left = (limit - seat.vacation_used_seconds) // 86400
            raise GameError("vacation_limit", f"You have {left} vacation days left in this game.", status=409)
        now = clock.now()
        seat.vacation_until = now + timedelta(days=days)
        seat.vacation_used_seconds += days * 86400
        seat.save(update_fields=["vacation_until", "vacation_used_seconds"])
        if game.deadline is not None and game.state:
            state = rules.load(game.state)
            if seat.index in rules.to_move(state):
                game.deadline = game.deadline + timedelta(days=days)
                game.save(update_fields=["deadline"])
    return seat
