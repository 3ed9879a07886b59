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

from django.utils import timezone

import rules

from .models import Game


def now() -> datetime:
    """The one source of "now" for clocks and mail timing, so tests can drive time instead of sleeping (they
    replace this function)."""
    return timezone.now()


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
        moment = now()
        same_people = previous_to_move is not None and sorted(previous_to_move) == sorted(to_move)
        # A main-game turn (set-up turns have no offers, and their placements change hands without `current`).
        same_turn = previous_turn is not None and state.turn > 0 and previous_turn == (state.turn, state.current)
        if same_people or same_turn:
            # Read only for games with a turn clock: the move path does not load the deadline otherwise.
            if game.deadline is not None and game.deadline > moment:
                return game.deadline
        return moment + timedelta(seconds=game.turn_seconds)
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
    moment = now()
    changed = []
    for index, seat in seats.items():
        due = index in to_move and bool(seat.user_id)
        if due and (seat.due_since is None or seat.credited_turn != turn):
            if seat.due_since is None:
                seat.due_since = clock_start(seat, moment)
            if seat.credited_turn != turn:
                # A new turn, even for a seat still deciding (its last set-up road, then its first roll).
                bank = (seat.bank_seconds or 0) + game.move_seconds
                seat.bank_seconds = min(bank, BANK_CAP_MOVES * game.move_seconds)
                seat.credited_turn = turn
            seat.deadline = seat.due_since + timedelta(seconds=seat.bank_seconds or 0)
            changed.append(seat)
        elif not due and seat.due_since is not None:
            spent = max(0.0, (moment - seat.due_since).total_seconds())
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


# A moderator's pause, resume and extension: one model for every clock of the game. The game's deadline and
# each due seat's deadline (with the moment it began to owe its decision, and its time bank) always move together
# and by the same amount, paused or not. A pause keeps the seconds the game's deadline had left
# (`Game.paused_remaining`); resume moves every clock on by the length of the pause, which is `now + remaining -
# game.deadline` as long as anything that moves the game's deadline during the pause moves `paused_remaining`
# with it (`set_game_deadline`).


def pause(game: Game, now: datetime) -> None:
    """Freeze the clocks: the deadlines stay as they are (no tick looks at a paused game)."""
    game.paused_remaining = max(0.0, (game.deadline - now).total_seconds()) if game.deadline else None


def resume(game: Game, now: datetime) -> None:
    """Give back the time the pause took: every clock moves on by it."""
    if game.paused_remaining is not None and game.deadline is not None:
        _shift(game, now + timedelta(seconds=game.paused_remaining) - game.deadline)
    game.paused_remaining = None


def _shift(game: Game, by: timedelta) -> None:
    """The game's deadline and each seat's move on by `by`, with the moment the seat began to owe its decision
    (so that its time bank is not charged for the pause)."""
    game.deadline += by
    seats = list(game.seats.filter(deadline__isnull=False))
    for seat in seats:
        seat.deadline += by
        if seat.due_since is not None:
            seat.due_since += by
    if seats:
        type(seats[0]).objects.bulk_update(seats, ["deadline", "due_since"])


def extend(game: Game, by: timedelta) -> dict[int, datetime]:
    """More time for the decisions now due, paused or not: each person who owes one gets `by` in their time bank,
    so their deadline (the bank's end) moves by `by`; the game's deadline moves with them (and, in a paused game,
    the time frozen: resume gives the extension back with the rest). The reminder may go again before the new
    deadline. Returns each such seat's new deadline, by seat index. The caller saves the game."""
    set_game_deadline(game, game.deadline + by)
    game.reminded_seq = None
    seats = list(game.seats.filter(deadline__isnull=False, user__isnull=False))
    for seat in seats:
        seat.deadline += by
        if seat.bank_seconds is not None:
            seat.bank_seconds += int(by.total_seconds())
    if seats:
        type(seats[0]).objects.bulk_update(seats, ["deadline", "bank_seconds"])
    return {seat.index: seat.deadline for seat in seats}


def set_game_deadline(game: Game, deadline: datetime | None) -> None:
    """Set the game's deadline; in a paused game the time frozen moves with it, so that resume still moves every
    clock on by exactly the length of the pause. The caller saves `deadline` and `paused_remaining`."""
    if game.status == Game.Status.PAUSED and game.paused_remaining is not None:
        if deadline is None or game.deadline is None:
            game.paused_remaining = None
        else:
            game.paused_remaining += (deadline - game.deadline).total_seconds()
    game.deadline = deadline


def reminder_due(game: Game) -> bool:
    if game.deadline is None or game.reminded_seq == game.seq:
        return False
    return now() >= game.deadline - timedelta(seconds=game.move_seconds / 4)
