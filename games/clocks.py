"""Clocks: when the decisions now due time out, and when a reminder is due.

Play by email runs a time bank per seat (as Board Game Arena's turn-based clocks): when a seat is asked to
decide, the game's time per move is added to its bank (once per turn, up to BANK_CAP_MOVES of them) and its
deadline is the bank's end; when it has answered, the time it took is spent. A turn's several decisions (roll,
build, end) run on one clock, and several people who owe a decision at once (discards, trade replies) each have
their own deadline. The game's deadline is the earliest of them. Live games with a turn clock: see
`deadline_for`."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import rules

from . import clock
from .models import Game


def deadline_for(
    game: Game,
    state: rules.State,
    seats: dict[int, Any],
    previous_to_move: list[int] | None = None,
    previous_turn: tuple[int, int] | None = None,
) -> datetime | None:
    """The deadline of the decision now due, or None when no person must act or the game has no clock.

    Play by email: each seat's time bank (`_run_banks`), its clock starting at the end of any vacation. Live
    games with a turn clock: `turn_seconds` per turn. While the same people go on acting (a turn's roll, builds
    and trades), and through the moments within one turn when others decide (answers to an offer, discards after
    a 7), the deadline set at the start of the turn stands: an offer round does not restart the turn's clock.
    `previous_turn` is (turn, current) before the move. A turn whose clock ran out while others decided gives
    its player a fresh one (the timeout settled those others, not them)."""
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
        same_people = previous_to_move is not None and sorted(previous_to_move) == sorted(to_move)
        # A main-game turn (set-up turns have no offers, and their placements change hands without `current`).
        same_turn = previous_turn is not None and state.turn > 0 and previous_turn == (state.turn, state.current)
        if same_people or same_turn:
            # Read only for games with a turn clock: the move path does not load the deadline otherwise.
            if game.deadline is not None and game.deadline > now:
                return game.deadline
        return now + timedelta(seconds=game.turn_seconds)
    if not game.move_seconds:
        return None
    return _run_banks(game, to_move, seats, turn_number(state))


BANK_CAP_MOVES = 3


def turn_number(state: rules.State) -> int:
    """Which turn of the game this is, counted from its start: each set-up placement (a settlement and its road)
    is a turn of its own, then each player's turn in the main game."""
    return state.setup_index if state.turn == 0 else len(state.setup_order) + state.turn


def _run_banks(game: Game, to_move: list[int], seats: dict[int, Any], turn: int) -> datetime | None:
    """Start the clock of each person newly asked to decide, stop (and charge) the clock of each who answered;
    the earliest deadline of those who owe a decision. The time per move goes into a seat's bank once per turn
    (`turn`), the first time the seat is asked in it."""
    now = clock.now()
    changed = []
    for index, seat in seats.items():
        due = index in to_move and bool(seat.user_id)
        if due and (seat.due_since is None or seat.credited_turn != turn):
            if seat.due_since is None:
                seat.due_since = clock_start(seat, now)
            if seat.credited_turn != turn:
                # A new turn, even for a seat still deciding (its last set-up road, then its first roll).
                bank = (seat.bank_seconds or 0) + game.move_seconds
                seat.bank_seconds = min(bank, BANK_CAP_MOVES * game.move_seconds)
                seat.credited_turn = turn
            seat.deadline = seat.due_since + timedelta(seconds=seat.bank_seconds or 0)
            changed.append(seat)
        elif not due and seat.due_since is not None:
            spent = max(0.0, (now - seat.due_since).total_seconds())
            seat.bank_seconds = max(0, int((seat.bank_seconds or 0) - spent))
            seat.due_since = seat.deadline = None
            changed.append(seat)
    if changed:
        type(changed[0]).objects.bulk_update(changed, ["bank_seconds", "credited_turn", "due_since", "deadline"])
    deadlines = [seats[i].deadline for i in to_move if i in seats and seats[i].user_id and seats[i].deadline]
    return min(deadlines) if deadlines else None


def away_until(seat: Any) -> datetime | None:
    """When the seat's person is back from vacation (possibly past): the later of this game's vacation and their
    account's, unless they ended the account's early in this game. None when neither was set."""
    ends = [seat.vacation_until] if seat.vacation_until else []
    account = seat.user.vacation_until if seat.user_id else None
    if account and account != seat.account_vacation_waived:
        ends.append(account)
    return max(ends) if ends else None


def clock_start(seat: Any, now: datetime) -> datetime:
    """When a decision asked of the seat now starts its clock: now, or once its person is back from vacation."""
    back = away_until(seat)
    return max(now, back) if back else now


def retime(seat: Any, now: datetime) -> bool:
    """A decision already due, after its person's vacation changed: its clock keeps the time it had left and runs
    from now, or from their return. Returns whether the seat owed a decision (and changed)."""
    if seat.due_since is None or seat.deadline is None:
        return False
    left = int(max(0.0, (seat.deadline - max(now, seat.due_since)).total_seconds()))
    seat.due_since = clock_start(seat, now)
    seat.bank_seconds = left
    seat.deadline = seat.due_since + timedelta(seconds=left)
    return True


def reminder_due(game: Game) -> bool:
    if game.deadline is None or game.reminded_seq == game.seq:
        return False
    return clock.now() >= game.deadline - timedelta(seconds=game.move_seconds / 4)
