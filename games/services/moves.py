"""Moves: the one road by which anything changes a game's position.

A person's move (`move_submit`) and a move the server makes for a seat (`move_submit_for_seat`: a bot, a
standing order, a timeout, a moderator) go the same way: lock the game row, check the expected sequence number,
`rules.apply`, append the `Move` (with its cause), let standing orders answer what they can, save the snapshot
and the clock, write the email rows, and hand the rest to the outbox for after the commit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from infra import logs, metrics, timing
from infra.errors import GameError
from rules.ai import autoplay

from .. import clocks, outbox, ratelimit, signals
from ..fields import json_dumps
from ..mail import notifications
from ..models import Game, Move, Seat
from ..store import move_sql, state_cache

log = logs.get_logger(__name__)

# The largest action a client may send: the biggest legal one (a trade with counts) is under 300 bytes.
MAX_ACTION_BYTES = 4096


class Cause:
    """Why a move was made: recorded on each Move row."""

    PLAYER = "player"
    BOT = "bot"
    STANDING_ORDER = "standing_order"
    TIMEOUT = "timeout"
    MODERATOR = "moderator"
    ALL = (PLAYER, BOT, STANDING_ORDER, TIMEOUT, MODERATOR)


@dataclass(frozen=True)
class MoveResult:
    seq: int
    seat: int
    events: list[dict[str, Any]]
    duplicate: bool = False


def storable(text: str) -> bool:
    """Whether PostgreSQL can store this text: no NUL, no lone surrogate (JSON may carry both). Every text a client
    sends that reaches a column goes through this one check (move keys, chat lines, report reasons)."""
    return "\x00" not in text and not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def _check_action_size(action: Any) -> None:
    try:
        size = len(json_dumps(action))
    except (TypeError, ValueError):
        raise GameError("bad_action", _("An action is a JSON object.")) from None
    if size > MAX_ACTION_BYTES:
        raise GameError("action_too_large", _("This action is too large."))


def move_submit(
    *,
    game_id: int,
    action: Any,
    user: Any,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> MoveResult:
    """Apply one move for the user's seat. Raises GameError and changes nothing when refused."""
    timing.mark("to_thread")
    try:
        return _move_submit(game_id, action, user, expected_seq, idempotency_key)
    except GameError as error:
        metrics.move_finished(error.code)
        log.info("move_refused", game_id=game_id, code=error.code)
        raise


def _move_submit(
    game_id: int, action: Any, user: Any, expected_seq: int | None, idempotency_key: str | None
) -> MoveResult:
    if idempotency_key is not None and (
        not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 64 or not storable(idempotency_key)
    ):
        raise GameError("bad_idempotency_key", _("The idempotency key is a string of 1 to 64 characters."))
    if expected_seq is not None and type(expected_seq) is not int:
        raise GameError("bad_seq", _("The expected sequence number is a whole number."))
    if user is None or not user.is_authenticated:
        raise GameError("not_a_player", _("You have no seat in this game."), status=403)
    _check_action_size(action)
    ratelimit.check(user, "moves")
    timing.mark("limit")
    # A key is looked up only when the move fails: a retry of a stored move is then refused (stale, illegal)
    # or collides with the unique key, and either way answers with the stored move, applied once.
    try:
        return _submit(game_id, action, expected_seq, user=user, idempotency_key=idempotency_key)
    except GameError:
        earlier = _earlier_move(game_id, idempotency_key, user)
        if earlier is None:
            raise
        return earlier
    except IntegrityError:
        # The game row is locked, so only a duplicate key can collide; nothing was stored.
        earlier = _earlier_move(game_id, idempotency_key, user)
        if earlier is None:
            raise GameError(
                "conflict", _("Another move was recorded at the same time; try again."), status=409
            ) from None
        return earlier


def move_submit_for_seat(
    *,
    game_id: int,
    seat: int,
    action: Any,
    cause: str,
    expected_seq: int | None = None,
    prefix_events: list[dict[str, Any]] | None = None,
) -> MoveResult:
    """The server moves for `seat` (a bot, a standing order, a timeout, a moderator): the same road as a
    person's move, with its cause recorded. A bot may move only for a bot's seat."""
    if cause not in Cause.ALL or cause == Cause.PLAYER:
        raise ValueError(f"unknown cause {cause!r}")
    try:
        return _submit(game_id, action, expected_seq, seat_index=seat, cause=cause, prefix_events=prefix_events)
    except GameError as error:
        metrics.move_finished(error.code)
        log.info("move_refused", game_id=game_id, seat=seat, cause=cause, code=error.code)
        raise


def _earlier_move(game_id: int, idempotency_key: str | None, user: Any) -> MoveResult | None:
    """The move already stored under this key by the same player, if any."""
    if idempotency_key is None:
        return None
    earlier = Move.objects.filter(game_id=game_id, idempotency_key=idempotency_key, user=user).first()
    if earlier is None:
        return None
    return MoveResult(earlier.seq, earlier.seat, earlier.events, duplicate=True)


def _seats(game: Game) -> dict[int, Seat | move_sql.SeatRow]:
    # Only play by email needs the users themselves (notifications, quiet hours).
    if game.clock == Game.Clock.ASYNC:
        return {s.index: s for s in game.seats.select_related("user")}
    return move_sql.seats_of(game)


def _submit(
    game_id: int,
    action: Any,
    expected_seq: int | None,
    *,
    user: Any = None,
    idempotency_key: str | None = None,
    seat_index: int | None = None,
    cause: str = Cause.PLAYER,
    prefix_events: list[dict[str, Any]] | None = None,
) -> MoveResult:
    logs.bind(game_id=game_id)  # the outbox rows and the tasks this move queues carry it too
    known = state_cache.known(game_id)
    # perf_counter stamps only under the lock: the metrics are recorded once the transaction is over.
    stamps = [time.perf_counter()]
    with transaction.atomic():
        game = move_sql.lock_game(game_id, known_state=known)
        stamps.append(time.perf_counter())
        timing.mark("lock")
        if game is None:
            raise GameError("not_found", _("No such game."), status=404)
        if game.status != Game.Status.ACTIVE:
            raise GameError("not_active", _("This game is not in progress."), status=409)
        seats = _seats(game)
        if user is not None:
            seat = next((s for s in seats.values() if s.user_id == user.pk), None)
        else:
            seat = seats.get(seat_index)
            if seat is not None and cause == Cause.BOT and not seat.bot:
                seat = None  # the seat went back to a person: the bot's turn is over
        if seat is None:
            raise GameError("not_a_player", _("You have no seat in this game."), status=403)
        if expected_seq is not None and expected_seq != game.seq:
            raise GameError(
                "stale",
                _("The game has moved on; here is the current position."),
                status=409,
                extra={"seq": game.seq},
            )
        state = _position(game, known)
        before = rules.to_move(state)
        before_turn = (state.turn, state.current)
        first_seq = game.seq + 1
        events = _record(
            game,
            state,
            seat.index,
            action,
            cause=cause,
            user_id=user.pk if user is not None else None,
            idempotency_key=idempotency_key,
            prefix_events=prefix_events,
        )
        timing.mark("apply")
        stamps.append(time.perf_counter())
        # Runs first among the commit's callbacks: the outbox's fan-out follows it.
        transaction.on_commit(lambda: stamps.append(time.perf_counter()))
        _settle(game, state, events, seats, mover=user, previous_to_move=before, previous_turn=before_turn)
        timing.mark("save")
    timing.mark("commit")
    stamps.append(time.perf_counter())
    metrics.move_accepted(stamps)
    log.info(
        "move_accepted",
        seq=first_seq,
        seat=seat.index,
        action=action.get("type") if isinstance(action, dict) else None,
        cause=cause,
        ms=round((stamps[-1] - stamps[0]) * 1000, 2),
    )
    stored = game.__dict__.get("_state_digest")
    if stored is not None and not connections[DEFAULT_DB_ALIAS].in_atomic_block:
        # Committed (not inside a caller's transaction, whose frames are still to be built from this state and
        # which may yet roll back): the next move of this game in this process starts from it.
        state_cache.keep(game_id, stored, state)
    return MoveResult(first_seq, seat.index, events)


def _position(game: Game, known: str | None) -> rules.State:
    """The game's position as the locked row stores it: the decoded copy this process holds when the row's snapshot
    is the one it stored last (`lock_game` then leaves `state` out), else the snapshot decoded."""
    if known is not None and game.state is None:
        held = state_cache.take(game.pk, known)
        if held is not None:
            return held
        game.state = move_sql.state_of(game.pk)  # another thread of this process took it, and its move failed
    else:
        state_cache.forget(game.pk)
    return rules.load(game.state, owned=True)  # freshly decoded: no copy


def _record(
    game: Game,
    state: rules.State,
    seat: int,
    action: Any,
    *,
    cause: str,
    user_id: int | None = None,
    idempotency_key: str | None = None,
    prefix_events: list | None = None,
) -> list[dict[str, Any]]:
    """Apply one action to the loaded state and append its Move row."""
    try:
        events = [*(prefix_events or []), *rules.apply(state, seat, action)]
    except rules.IllegalAction as error:
        raise GameError(error.code, error.message) from None
    game.seq += 1
    move_sql.add_move(
        game,
        game_id=game.pk,
        seq=game.seq,
        seat=seat,
        action=action,
        events=events,
        idempotency_key=idempotency_key,
        user_id=user_id,
        cause=cause,
    )
    return events


def _settle(
    game: Game,
    state: rules.State,
    events: list[dict[str, Any]],
    seats: dict[int, Seat | move_sql.SeatRow],
    mover: Any = None,
    previous_to_move: list[int] | None = None,
    previous_turn: tuple[int, int] | None = None,
) -> None:
    """After a move: standing orders answer what they can (each a move of its own, caused by the order), then
    save, set the clock, write notifications and hand the frames and the next bot turn to the outbox."""
    for _round in range(4 * game.seat_count):
        pending = []
        for index in rules.to_move(state):
            seat = seats.get(index)
            if seat is None or not seat.user_id or not seat.standing_orders:
                continue
            action = autoplay.standing_order_action(
                rules.view(state, index), rules.legal_actions(state, index), seat.standing_orders
            )
            if action is not None:
                pending.append((index, action))
                break
        if not pending:
            break
        index, action = pending[0]
        prefix = [{"type": "standing_order", "seat": index}]
        events.extend(_record(game, state, index, action, cause=Cause.STANDING_ORDER, prefix_events=prefix))
    save_position(
        game, state, events, seats, mover=mover, previous_to_move=previous_to_move, previous_turn=previous_turn
    )


def save_position(
    game: Game,
    state: rules.State,
    events: list[dict[str, Any]],
    seats: dict[int, Seat | move_sql.SeatRow],
    mover: Any = None,
    previous_to_move: list[int] | None = None,
    previous_turn: tuple[int, int] | None = None,
) -> None:
    """Store the game's new position (with the moves `_record` queued) and queue what follows its commit."""
    game.state = rules.dump(state, copy=False)  # encoded at once: sharing the state's lists costs no copy
    state_text = json_dumps(game.state)
    game._state_digest = state_cache.digest(state_text)
    fields = ["state", "seq", "deadline", "bot_turn_since"]
    if state.winner is not None and game.status == Game.Status.ACTIVE:
        game.status = Game.Status.FINISHED
        game.winner_seat = state.winner
        game.finished_at = timezone.now()
        fields += ["status", "winner_seat", "finished_at"]
    active = game.status == Game.Status.ACTIVE
    to_move = rules.to_move(state)
    bot_due = active and any(seats[s].bot for s in to_move if s in seats)
    game.bot_turn_since = timezone.now() if bot_due else None
    game.deadline = clocks.deadline_for(game, state, seats, previous_to_move, previous_turn)
    move_sql.save_game(game, fields, state_text=state_text)
    if "winner_seat" in fields:  # this move ended the game
        signals.game_finished.send(sender=Game, game=game, state=state)
    ids = notifications.create_for_move(
        game,
        state,
        game.seq,
        mover=mover,
        seats=seats,
        previous_to_move=previous_to_move,
        previous_turn=previous_turn,
    )
    outbox.move_committed(
        game_id=game.pk,
        pace=game.bot_pace,
        state=state,
        seq=game.seq,
        events=events,
        user_by_seat={index: seat.user_id for index, seat in seats.items()},
        bot_due=bot_due,
        live=game.clock == Game.Clock.LIVE,
        notification_ids=ids,
        deadline=game.deadline,
        turn_seconds=game.turn_seconds if game.clock == Game.Clock.LIVE else None,
    )
