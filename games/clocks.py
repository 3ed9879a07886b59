"""Clocks: when the decisions now due time out, and when a reminder is due.

Play by email runs a time bank per seat (as Board Game Arena's turn-based clocks): when a seat is asked to
decide, the game's time per move is added to its bank (up to BANK_CAP_MOVES of them) and its deadline is the
bank's end; when it has answered, the time it took is spent. A turn's several decisions (roll, build, end) run
on one clock, and several people who owe a decision at once (discards, trade replies) each have their own
deadline. The game's deadline is the earliest of them. Live games with a turn clock: see `deadline_for`."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import rules

from . import clock
from .models import Game


def deadline_for(
    game: Game, state: rules.State, seats: dict[int, Any], previous_to_move: list[int] | None = None
) -> datetime | None:
    """The deadline of the decision now due, or None when no person must act or the game has no clock.

    Play by email: `move_seconds` per decision, from the end of any vacation. Live games with a turn clock:
    `turn_seconds` from the moment the people who must act change; while the same people go on acting (a turn's
    roll, builds and trades) the deadline set at the start of their turn stands."""
    if game.status != Game.Status.ACTIVE:
        return None
    to_move = rules.to_move(state)
    humans = [seats[s] for s in to_move if s in seats and seats[s].user_id]
    if not humans:
        return None
    if game.clock == Game.Clock.LIVE:
        if not game.turn_seconds:
            return None
        now = clock.now()
        if previous_to_move is not None and sorted(previous_to_move) == sorted(to_move):
            # Read only for games with a turn clock: the move path does not load the deadline otherwise.
            if game.deadline is not None and game.deadline > now:
                return game.deadline
        return now + timedelta(seconds=game.turn_seconds)
    if not game.move_seconds:
        return None
    return _run_banks(game, to_move, seats)


BANK_CAP_MOVES = 3


def _run_banks(game: Game, to_move: list[int], seats: dict[int, Any]) -> datetime | None:
    """Start the clock of each person newly asked to decide, stop (and charge) the clock of each who answered;
    the earliest deadline of those who owe a decision."""
    now = clock.now()
    changed = []
    for index, seat in seats.items():
        due = index in to_move and bool(seat.user_id)
        if due and seat.due_since is None:
            # The clock only starts once they are back from vacation.
            start = max(now, seat.vacation_until) if seat.vacation_until else now
            bank = (seat.bank_seconds or 0) + game.move_seconds
            seat.bank_seconds = min(bank, BANK_CAP_MOVES * game.move_seconds)
            seat.due_since, seat.deadline = start, start + timedelta(seconds=seat.bank_seconds)
            changed.append(seat)
        elif not due and seat.due_since is not None:
            spent = max(0.0, (now - seat.due_since).total_seconds())
            seat.bank_seconds = max(0, int((seat.bank_seconds or 0) - spent))
            seat.due_since = seat.deadline = None
            changed.append(seat)
    if changed:
        type(changed[0]).objects.bulk_update(changed, ["bank_seconds", "due_since", "deadline"])
    deadlines = [seats[i].deadline for i in to_move if i in seats and seats[i].user_id and seats[i].deadline]
    return min(deadlines) if deadlines else None


def reminder_due(game: Game) -> bool:
    if game.deadline is None or game.reminded_seq == game.seq:
        return False
    return clock.now() >= game.deadline - timedelta(seconds=game.move_seconds / 4)
