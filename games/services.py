"""Every write to games goes through here (views, consumers and tasks only parse and call).

The flow of a move: lock the game row, check the expected sequence number and the idempotency key, run
`rules.apply`, append the `Move`, save the new snapshot, and after commit broadcast each seat its own view
and let bots play.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules.chance import seed_commitment

from . import broadcast, clocks, notifications, ratelimit, rows, standing_orders
from .errors import GameError
from .models import ChatMessage, Game, Move, Seat, TimeoutPolicy

MAX_ACTION_BYTES = 4096


@dataclass(frozen=True)
class MoveResult:
    seq: int
    seat: int
    events: list[dict[str, Any]]
    duplicate: bool = False


def _scenario_players(scenario: str, seat_count: int, options: dict[str, Any]) -> None:
    """Let the engine judge the scenario, player count and options before anything is stored."""
    try:
        rules.new_game(scenario=scenario, players=seat_count, seed=0, options=options)
    except rules.IllegalAction as error:
        raise GameError(error.code, error.message) from None


def game_create(
    *,
    creator,
    scenario: str = "base",
    seat_count: int = 4,
    bot_seats: list[int] | None = None,
    bot_level: str = Seat.Bot.MEDIUM,
    options: dict[str, Any] | None = None,
    visibility: str = Game.Visibility.PUBLIC,
    clock: str = Game.Clock.LIVE,
    move_seconds: int | None = None,
    timeout_policy: str = TimeoutPolicy.BOT,
    name: str = "",
) -> Game:
    options = dict(options or {})
    if type(seat_count) is not int:
        raise GameError("bad_seat_count", _("The number of seats is a whole number."))
    _scenario_players(scenario, seat_count, options)
    bot_seats = sorted(set(bot_seats or []))
    if any(type(i) is not int or not 1 <= i < seat_count for i in bot_seats):
        raise GameError("bad_bot_seats", _("Bot seats are seat numbers other than yours (from 1)."))
    if bot_level not in Seat.Bot.values:
        raise GameError("bad_bot_level", _("Unknown bot level."))
    if visibility not in Game.Visibility.values:
        raise GameError("bad_visibility", _("Visibility is public or private."))
    if timeout_policy not in TimeoutPolicy.values:
        raise GameError("bad_timeout_policy", _("The timeout policy is bot, skip or replace."))
    if clock not in Game.Clock.values:
        raise GameError("bad_clock", _("The clock is live or async."))
    if clock == Game.Clock.ASYNC:
        if type(move_seconds) is not int or not 3600 <= move_seconds <= 14 * 86400:
            raise GameError("bad_move_time", _("Time per move is from 1 hour to 14 days."))
    else:
        move_seconds = None
    _check_game_cap(creator)
    with transaction.atomic():
        game = Game.objects.create(
            name=name[:80],
            scenario=scenario,
            seat_count=seat_count,
            options=options,
            visibility=visibility,
            clock=clock,
            move_seconds=move_seconds,
            timeout_policy=timeout_policy,
            created_by=creator,
        )
        for index in range(seat_count):
            Seat.objects.create(
                game=game,
                index=index,
                user=creator if index == 0 else None,
                bot=bot_level if index in bot_seats else "",
            )
    return game


def _check_game_cap(user) -> None:
    """Players may sit in many games at once, up to a configurable cap."""
    active = Seat.objects.filter(
        user=user, game__status__in=[Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.PAUSED]
    ).count()
    if active >= settings.MAX_GAMES_PER_USER:
        raise GameError(
            "too_many_games",
            _("You already play %(n)s games, the most allowed at once.") % {"n": settings.MAX_GAMES_PER_USER},
            status=409,
        )


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameError("not_found", _("No such game."), status=404) from None


def _locked_lobby_of_creator(game_id: int, user, not_creator: str) -> Game:
    """The locked game, if it has not started and `user` created it (else refused with `not_creator`)."""
    game = _locked(game_id)
    if game.created_by_id != user.pk:
        raise GameError("not_creator", not_creator, status=403)
    if game.status != Game.Status.WAITING:
        raise GameError("already_started", _("This game has already started."), status=409)
    return game


def seat_join(*, game_id: int, user, index: int | None = None) -> Seat:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.WAITING:
            raise GameError("not_joinable", _("This game has already started."), status=409)
        seats = list(game.seats.select_for_update())
        if any(s.user_id == user.pk for s in seats):
            raise GameError("already_seated", _("You already have a seat in this game."), status=409)
        _check_game_cap(user)
        free = [s for s in seats if s.is_open and (index is None or s.index == index)]
        if not free:
            raise GameError("no_free_seat", _("There is no free seat."), status=409)
        seat = free[0]
        seat.user = user
        seat.save(update_fields=["user"])
    broadcast.lobby_changed(game.pk)
    return seat


def seat_set_bot(*, game_id: int, user, index: Any, level: Any) -> Seat:
    """Before the start, the creator puts a bot of `level` in an open seat, changes its level, or opens the
    seat again (level "")."""
    if type(index) is not int:
        raise GameError("bad_seat", _("A seat is a whole number."))
    if level not in ("", *Seat.Bot.values):
        raise GameError("bad_bot_level", _("Unknown bot level."))
    with transaction.atomic():
        game = _locked_lobby_of_creator(game_id, user, _("Only the game's creator can seat bots."))
        seat = game.seats.select_for_update().filter(index=index).first()
        if seat is None:
            raise GameError("no_such_seat", _("There is no such seat."), status=404)
        if seat.user_id is not None:
            raise GameError("seat_taken", _("A person sits there."), status=409)
        seat.bot = level
        seat.save(update_fields=["bot"])
    broadcast.lobby_changed(game.pk)
    return seat


def seat_leave(*, game_id: int, user) -> None:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.WAITING:
            raise GameError("already_started", _("You cannot leave a game that has started."), status=409)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise GameError("not_seated", _("You have no seat in this game."), status=409)
        if seat.index == 0:
            game.status = Game.Status.CANCELLED
            game.save(update_fields=["status"])
        seat.user = None
        seat.save(update_fields=["user"])
    broadcast.lobby_changed(game.pk)


def game_start(*, game_id: int, user) -> Game:
    with transaction.atomic():
        game = _locked_lobby_of_creator(game_id, user, _("Only the game's creator can start it."))
        seats = list(game.seats.all())
        if any(s.is_open for s in seats):
            raise GameError("seats_open", _("Every seat needs a player or a bot."), status=409)
        game.seed = secrets.randbits(62)
        state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
        game.seed_commitment = seed_commitment(game.seed)
        game.state = rules.dump(state)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        seats = {s.index: s for s in game.seats.select_related("user")}
        game.deadline = clocks.deadline_for(game, state, seats)
        game.save()
        ids = notifications.create_for_move(game, state, 0)

        def after_commit() -> None:
            broadcast.after_move(game.pk, state, game.seq, [])
            notifications.queue(ids)

        transaction.on_commit(after_commit)
    return game


def move_submit(
    *,
    game_id: int,
    action: Any,
    user=None,
    bot_seat: int | None = None,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> MoveResult:
    """Apply one move for the user's seat (or a bot's). Raises GameError and changes nothing when refused."""
    if idempotency_key is not None and (not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 64):
        raise GameError("bad_idempotency_key", _("The idempotency key is a string of 1 to 64 characters."))
    if expected_seq is not None and type(expected_seq) is not int:
        raise GameError("bad_seq", _("The expected sequence number is a whole number."))
    if bot_seat is None:
        ratelimit.check(user, "moves")
    # A key is looked up only when the move fails: a retry of a stored move is then refused (stale, illegal)
    # or collides with the unique key, and either way answers with the stored move, applied once.
    try:
        return _move_submit(game_id, action, user, bot_seat, expected_seq, idempotency_key)
    except GameError:
        earlier = _earlier_move(game_id, idempotency_key, user, bot_seat)
        if earlier is None:
            raise
        return earlier
    except IntegrityError:
        # The game row is locked, so only a duplicate key can collide; nothing was stored.
        earlier = _earlier_move(game_id, idempotency_key, user, bot_seat)
        if earlier is None:
            raise GameError(
                "conflict", _("Another move was recorded at the same time; try again."), status=409
            ) from None
        return earlier


def _earlier_move(game_id: int, idempotency_key: str | None, user, bot_seat: int | None) -> MoveResult | None:
    """The move already stored under this key by the same player, if any."""
    if idempotency_key is None:
        return None
    moves = Move.objects.filter(game_id=game_id, idempotency_key=idempotency_key)
    if bot_seat is not None:
        moves = moves.filter(seat=bot_seat, user=None)
    elif user is not None and user.is_authenticated:
        moves = moves.filter(user=user)
    else:
        return None
    earlier = moves.first()
    if earlier is None:
        return None
    return MoveResult(earlier.seq, earlier.seat, earlier.events, duplicate=True)


def _move_submit(game_id, action, user, bot_seat, expected_seq, idempotency_key) -> MoveResult:
    with transaction.atomic():
        game = rows.lock_game(game_id)
        if game is None:
            raise GameError("not_found", _("No such game."), status=404)
        if game.status != Game.Status.ACTIVE:
            raise GameError("not_active", _("This game is not in progress."), status=409)
        # One query for every seat: the move and everything after it reuse them. Only play by email needs the
        # users themselves (notifications, quiet hours).
        if game.clock == Game.Clock.ASYNC:
            seats = {s.index: s for s in game.seats.select_related("user")}
        else:
            seats = rows.seats_of(game)
        if bot_seat is not None:
            seat = seats.get(bot_seat) if seats.get(bot_seat) and seats[bot_seat].bot else None
        elif user is not None and user.is_authenticated:
            seat = next((s for s in seats.values() if s.user_id == user.pk), None)
        else:
            seat = None
        if seat is None:
            raise GameError("not_a_player", _("You have no seat in this game."), status=403)
        if expected_seq is not None and expected_seq != game.seq:
            raise GameError(
                "stale",
                _("The game has moved on; here is the current position."),
                status=409,
                extra={"seq": game.seq},
            )
        state = rules.load(game.state, owned=True)  # freshly decoded: no copy
        events = _record(
            game, state, seat.index, action, user=user if bot_seat is None else None, idempotency_key=idempotency_key
        )
        first_seq = game.seq
        _settle(game, state, events, mover=user if bot_seat is None else None, seats=seats)
    return MoveResult(first_seq, seat.index, events)


def system_move(*, game: Game, state: rules.State, seat: int, action: dict, prefix_events: list) -> None:
    """A move the server makes for a seat (a timeout), inside the caller's transaction on a locked game."""
    events = _record(game, state, seat, action, prefix_events=prefix_events)
    _settle(game, state, events)


def _record(
    game: Game,
    state: rules.State,
    seat: int,
    action: Any,
    *,
    user=None,
    idempotency_key: str | None = None,
    prefix_events: list | None = None,
) -> list[dict[str, Any]]:
    """Apply one action to the loaded state and append its Move row."""
    try:
        events = [*(prefix_events or []), *rules.apply(state, seat, action)]
    except rules.IllegalAction as error:
        raise GameError(error.code, error.message) from None
    game.seq += 1
    rows.add_move(
        game,
        game_id=game.pk,
        seq=game.seq,
        seat=seat,
        action=action,
        events=events,
        idempotency_key=idempotency_key,
        user_id=user.pk if user is not None else None,
    )
    return events


def _settle(
    game: Game,
    state: rules.State,
    events: list[dict[str, Any]],
    mover=None,
    seats: dict[int, Seat | rows.SeatRow] | None = None,
) -> None:
    """After a move: standing orders answer what they can, then save, set the clock, write notifications and
    broadcast after commit."""
    if seats is None:
        seats = {s.index: s for s in game.seats.select_related("user")}
    for _round in range(4 * game.seat_count):
        pending = [
            (s, standing_orders.order_action(state, s, seats[s].standing_orders))
            for s in rules.to_move(state)
            if s in seats and seats[s].user_id and seats[s].standing_orders
        ]
        pending = [(s, a) for s, a in pending if a is not None]
        if not pending:
            break
        seat, action = pending[0]
        events.extend(_record(game, state, seat, action, prefix_events=[{"type": "standing_order", "seat": seat}]))
    game.state = rules.dump(state)
    fields = ["state", "seq", "deadline"]
    if state.winner is not None:
        game.status = Game.Status.FINISHED
        game.winner_seat = state.winner
        game.finished_at = timezone.now()
        fields += ["status", "winner_seat", "finished_at"]
    game.deadline = clocks.deadline_for(game, state, seats)
    rows.save_game(game, fields)
    ids = notifications.create_for_move(game, state, game.seq, mover=mover, seats=seats)
    game_id, seq = game.pk, game.seq
    bots = {i: s.bot for i, s in seats.items() if s.bot}
    live = game.clock == Game.Clock.LIVE
    active = game.status == Game.Status.ACTIVE

    def after_commit() -> None:
        broadcast.after_move(game_id, state, seq, events, bots=bots if active else {}, live=live)
        notifications.queue(ids)

    transaction.on_commit(after_commit)


def standing_orders_set(*, game_id: int, user, orders: Any) -> dict[str, Any]:
    try:
        clean = standing_orders.validate(orders)
    except ValueError as error:
        raise GameError("bad_orders", str(error)) from None
    seat = Seat.objects.filter(game_id=game_id, user=user).first()
    if seat is None:
        raise GameError("not_a_player", _("You have no seat in this game."), status=403)
    seat.standing_orders = clean
    seat.save(update_fields=["standing_orders"])
    return clean


def chat_post(*, game_id: int, user, text: Any) -> ChatMessage:
    ratelimit.check(user, "chat")
    if not isinstance(text, str) or not text.strip():
        raise GameError("empty_message", _("A message cannot be empty."))
    if len(text) > 500:
        raise GameError("message_too_long", _("A message has at most 500 characters."))
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameError("not_found", _("No such game."), status=404)
    if not game.seats.filter(user=user).exists():
        raise GameError("not_a_player", _("Only players can chat in a game."), status=403)
    message = ChatMessage.objects.create(game=game, user=user, text=text.strip())
    transaction.on_commit(lambda: broadcast.chat(game_id, message))
    return message
