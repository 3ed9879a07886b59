"""Turn clocks at work: reminders before a deadline, and the game's timeout policy after it.

When a deadline passes, every person who owes a decision then is settled at once, and each one's whole turn is
finished in one go: "bot" lets a medium bot play it out, "skip" takes the quickest way on (roll, decline, end the
turn), "replace" hands the seat to a bot for good (`seat_hand_to_bot`, an abandonment) which then plays on. Each
move goes through the one road for server moves (`move_submit_for_seat`, cause "timeout").

Play-by-email games are looked at by beat's clock tick; live games with a turn clock by a task the outbox queues
for just after each deadline (and by the tick too, should that task be lost). Every live game, with a turn clock
or without, waits only a grace period for a player who owes a decision and closed their last socket
(`player_left`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q

import rules
from infra.errors import GameError
from rules.ai import autoplay

from .. import clocks, outbox
from ..live import presence
from ..mail import notifications
from ..models import Game, Notification, Seat, TimeoutPolicy
from .moves import Cause, move_submit_for_seat
from .seats import seat_hand_to_bot

# A turn's moves for an absent player: a set-up turn is two, a main turn a roll, perhaps a robber, and the end.
MOST_MOVES_PER_TURN = 40


def _play_out(game_id: int, seat: int, policy: str, prefix: list[dict[str, Any]]) -> int:
    """Play the seat's decisions until it owes none; returns how many moves were made.

    When others must decide in between (the discards after a 7 the policy rolled), the seat is asked again later
    in the same turn: its bank, spent by this timeout, gets no time until the next turn (`clocks._run_banks`
    credits it once per turn), so its deadline is the moment it is asked: that move's commit queues the timeout
    (`outbox.move_committed`), which plays on at once."""
    moves = 0
    while moves < MOST_MOVES_PER_TURN:
        game = Game.objects.only("state", "seq", "bot_secret", "status").get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            break
        state = rules.load(game.state)
        if seat not in rules.to_move(state):
            break
        seed = autoplay.bot_seed(game.bot_secret, game.seq, seat)
        action = autoplay.timeout_action(state, seat, policy, seed=seed)
        try:
            move_submit_for_seat(
                game_id=game_id,
                seat=seat,
                action=action,
                cause=Cause.TIMEOUT,
                expected_seq=game.seq,
                prefix_events=prefix if moves == 0 else None,
            )
        except GameError:
            # The chosen move was refused: any legal move still ends the wait.
            action = autoplay.fallback_action(state, seat, seed=seed)
            move_submit_for_seat(game_id=game_id, seat=seat, action=action, cause=Cause.TIMEOUT, expected_seq=game.seq)
        moves += 1
    return moves


def _time_out(game: Game, seats: dict[int, Any], due: list[int]) -> str:
    """Settle every person who owes a decision, inside the caller's transaction on the locked game."""
    policy = game.timeout_policy
    for seat in due:
        user = seats[seat].user
        prefix = [{"type": "timeout", "seat": seat, "policy": policy}]
        if policy == TimeoutPolicy.REPLACE:
            seat_hand_to_bot(seat=seats[seat])
            prefix.append({"type": "seat_replaced", "seat": seat, "bot": seats[seat].bot})
            # The bot that now holds the seat plays on; this one move ends the person's wait.
            state = rules.load(Game.objects.only("state").get(pk=game.pk).state)
            if seat in rules.to_move(state):
                seed = autoplay.bot_seed(game.bot_secret, game.seq, seat)
                action = autoplay.timeout_action(state, seat, TimeoutPolicy.BOT, seed=seed)
                move_submit_for_seat(
                    game_id=game.pk, seat=seat, action=action, cause=Cause.TIMEOUT, prefix_events=prefix
                )
        else:
            _play_out(game.pk, seat, policy, prefix)
        if game.clock == Game.Clock.ASYNC:
            # The notice is about the moves just played: its row is at the last of them (`game` still holds the
            # seq before them), so the next email to this player starts after them.
            seq = Game.objects.values_list("seq", flat=True).get(pk=game.pk)
            notifications.create_single(game, user, Notification.Kind.TIMEOUT, seq=seq)
    return f"timeout:{policy}"


def tick(game_id: int) -> str:
    """One look at a game's clock: send its reminder, or apply its timeout policy. Returns what it did."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE or game.deadline is None:
            return "idle"
        state = rules.load(game.state)
        seats = {s.index: s for s in game.seats.select_related("user")}
        due = [s for s in rules.to_move(state) if s in seats and seats[s].user_id]
        now = clocks.now()
        if game.clock == Game.Clock.ASYNC:
            # Each person's own deadline (their time bank); all those past it are settled on this tick.
            late = [s for s in due if seats[s].deadline is not None and seats[s].deadline <= now]
        elif not game.turn_seconds:
            # No turn clock: only a disconnect grace set this deadline (`player_left`). Those still away are
            # played for; those back (a reload) keep their decision, with no clock again.
            if now < game.deadline:
                return "waiting"
            late = [s for s in due if not presence.here(game.pk, seats[s].user_id)]
            if not late:
                game.deadline = None
                game.save(update_fields=["deadline"])
                return "returned"
        else:
            late = due if now >= game.deadline else []
        if late:
            return _time_out(game, seats, late)
        if any((back := clocks.away_until(seats[s])) and back > now for s in due):
            return "vacation"
        if game.clock == Game.Clock.ASYNC and clocks.reminder_due(game):
            game.reminded_seq = game.seq
            game.save(update_fields=["reminded_seq"])
            ids = notifications.create_for_move(game, state, game.seq, kind=Notification.Kind.REMINDER)
            outbox.notifications_due_after_commit(ids)
            return "reminded"
    return "waiting"


def turn_timeout(game_id: int, seq: int) -> str:
    """A live turn clock ran out (queued by the outbox for just after the deadline set at move `seq`)."""
    if not Game.objects.filter(pk=game_id, seq=seq, status=Game.Status.ACTIVE).exists():
        return "moved on"
    return tick(game_id)


def player_left(*, game_id: int, user_id: int) -> bool:
    """The last socket of a player closed. In a live game, if they owe a decision, the table waits for them at
    most LIVE_DISCONNECT_GRACE_SECONDS more (not the rest of their turn, nor forever in a game with no turn
    clock): then the game's timeout policy plays ("bot" unless the creator chose otherwise). Returns whether
    the clock was shortened (or, with no turn clock, set)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id, status=Game.Status.ACTIVE).first()
        if game is None or game.clock != Game.Clock.LIVE:
            return False
        seat = game.seats.filter(user_id=user_id).first()
        if seat is None or seat.index not in rules.to_move(rules.load(game.state)):
            return False
        grace = clocks.now() + timedelta(seconds=settings.LIVE_DISCONNECT_GRACE_SECONDS)
        if game.deadline is not None and game.deadline <= grace:
            return False
        game.deadline = grace
        game.save(update_fields=["deadline"])
        outbox.timeout_at(game.pk, game.seq, grace)
    return True


def absent_sweep() -> int:
    """Live games with no turn clock, waiting on a person who closed every socket on them: each gets the grace
    again (`player_left`). A departure sets a grace deadline, but any later move of a game with no turn clock
    clears it (a bot's offer round while the person owes a reply), and the table would then wait for ever."""
    waiting = Game.objects.filter(
        Q(turn_seconds__isnull=True) | Q(turn_seconds=0),
        status=Game.Status.ACTIVE,
        clock=Game.Clock.LIVE,
        deadline__isnull=True,
        bot_turn_since__isnull=True,
    )
    graced = 0
    # `player_left` checks, on the locked game, that the person still owes a decision and sets the grace once.
    for game_id, user_id in Seat.objects.filter(game__in=waiting, user__isnull=False).values_list("game_id", "user_id"):
        if presence.gone(game_id, user_id) and player_left(game_id=game_id, user_id=user_id):
            graced += 1
    return graced


def tick_all() -> dict[str, int]:
    counts: dict[str, int] = {}
    if absent := absent_sweep():
        counts["absent"] = absent
    for game_id in Game.objects.filter(status=Game.Status.ACTIVE, deadline__isnull=False).values_list("pk", flat=True):
        result = tick(game_id)
        counts[result] = counts.get(result, 0) + 1
    return counts
