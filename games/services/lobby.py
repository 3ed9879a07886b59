"""Before the first roll: creating a game, taking and leaving seats, seating bots, starting."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from infra.errors import GameError
from rules.chance import seed_commitment

from .. import access, clocks, outbox, ratelimit
from ..mail import notifications
from ..models import Game, Notification, Seat, TimeoutPolicy

# Text a mail client would make clickable: a scheme (http://), www., a domain name (free-gold.example) or an IP
# address. A game's name travels in invitation mail from the site's own sender: it may hold none.
LINK = re.compile(
    r"(?i)[a-z][a-z0-9+.-]*://|\bwww\d*\.|\b\d{1,3}(?:\.\d{1,3}){3}\b"
    r"|\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.[a-z]{2,63}\b"
)


def _scenario_players(scenario: str, seat_count: int, options: dict[str, Any]) -> None:
    """Let the engine judge the scenario, player count and options before anything is stored."""
    try:
        rules.new_game(scenario=scenario, players=seat_count, seed=0, options=options)
    except rules.IllegalAction as error:
        raise GameError(error.code, error.message) from None


def game_create(
    *,
    creator: Any,
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
    turn_seconds: int | None = None,
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
        shortest = settings.ASYNC_MIN_MOVE_SECONDS
        if type(move_seconds) is not int or not shortest <= move_seconds <= 14 * 86400:
            if shortest == 3600:
                raise GameError("bad_move_time", _("Time per move is from 1 hour to 14 days."))
            raise GameError("bad_move_time", _("Time per move is from %(s)d seconds to 14 days.") % {"s": shortest})
        turn_seconds = None
    else:
        move_seconds = None
        if turn_seconds is not None and (type(turn_seconds) is not int or not 30 <= turn_seconds <= 900):
            raise GameError("bad_turn_time", _("A live turn lasts from 30 seconds to 15 minutes."))
    if not isinstance(name, str) or LINK.search(name):
        raise GameError("bad_name", _("A game's name cannot contain a web address."))
    _check_creation_caps(creator)  # a refusal here costs nothing of the hourly budget
    ratelimit.check(creator, "games")
    with transaction.atomic():
        # Counted again under the creator's lock: requests sent at the same moment each see the others' games.
        _lock_player(creator)
        _check_creation_caps(creator)
        game = Game.objects.create(
            name=name[:80],
            scenario=scenario,
            seat_count=seat_count,
            options=options,
            visibility=visibility,
            clock=clock,
            move_seconds=move_seconds,
            turn_seconds=turn_seconds,
            timeout_policy=timeout_policy,
            created_by=creator,
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                index=index,
                user=creator if index == 0 else None,
                bot=bot_level if index in bot_seats else "",
            )
            for index in range(seat_count)
        )
    return game


def _lock_player(user: Any) -> None:
    """Lock the person's row until the transaction ends: their caps are counted and used by one request at a
    time. Taken after any game lock (never before one), so two requests cannot wait on each other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()


def _check_creation_caps(creator: Any) -> None:
    _check_game_cap(creator)
    waiting = Game.objects.filter(created_by=creator, status=Game.Status.WAITING).count()
    if waiting >= settings.MAX_WAITING_GAMES_PER_USER:
        raise GameError(
            "too_many_waiting",
            _("You already have %(n)s games waiting for players: start or cancel one first.")
            % {"n": settings.MAX_WAITING_GAMES_PER_USER},
            status=409,
        )


def _check_game_cap(user: Any) -> None:
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


def locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameError("not_found", _("No such game."), status=404) from None


def _locked_lobby_of_creator(game_id: int, user: Any, not_creator: str) -> Game:
    """The locked game, if it has not started and `user` created it (else refused with `not_creator`)."""
    game = locked_game(game_id)
    if game.created_by_id != user.pk:
        raise GameError("not_creator", not_creator, status=403)
    if game.status != Game.Status.WAITING:
        raise GameError("already_started", _("This game has already started."), status=409)
    return game


def seat_join(*, game_id: int, user: Any, index: int | None = None, invite: str | None = None) -> Seat:
    """Take a free seat (the first, or `index`). A private game takes its invite."""
    with transaction.atomic():
        game = locked_game(game_id)
        access.check_invite(game, user, invite)
        if game.status != Game.Status.WAITING:
            raise GameError("not_joinable", _("This game has already started."), status=409)
        seats = list(game.seats.select_for_update())
        if any(s.user_id == user.pk for s in seats):
            raise GameError("already_seated", _("You already have a seat in this game."), status=409)
        _lock_player(user)
        _check_game_cap(user)
        free = [s for s in seats if s.is_open and (index is None or s.index == index)]
        if not free:
            raise GameError("no_free_seat", _("There is no free seat."), status=409)
        seat = free[0]
        seat.user = user
        seat.save(update_fields=["user"])
        outbox.seats_changed(game.pk)
        outbox.game_changed(game.pk)
    return seat


def seat_set_bot(*, game_id: int, user: Any, index: Any, level: Any) -> Seat:
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
        outbox.game_changed(game.pk)
    return seat


def seat_leave(*, game_id: int, user: Any) -> None:
    with transaction.atomic():
        game = locked_game(game_id)
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
        outbox.seats_changed(game.pk)
        outbox.game_changed(game.pk)


def game_start(*, game_id: int, user: Any) -> Game:
    with transaction.atomic():
        game = _locked_lobby_of_creator(game_id, user, _("Only the game's creator can start it."))
        seats = {s.index: s for s in game.seats.select_related("user")}
        if any(s.is_open for s in seats.values()):
            raise GameError("seats_open", _("Every seat needs a player or a bot."), status=409)
        game.seed = secrets.randbits(62)
        state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
        game.seed_salt = secrets.token_hex(16)
        game.seed_commitment = seed_commitment(game.seed, game.seed_salt)
        game.state = rules.dump(state)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        game.deadline = clocks.deadline_for(game, state, seats)
        bot_due = any(seats[s].bot for s in rules.to_move(state))
        game.bot_turn_since = timezone.now() if bot_due else None
        game.save()
        ids = notifications.create_for_move(game, state, 0, seats=seats)
        first = set(rules.to_move(state))
        for index, seat in seats.items():
            if seat.user_id and seat.user_id != user.pk and index not in first:
                notifications.create_single(game, seat.user, Notification.Kind.STARTED, seat=seat)
        outbox.move_committed(
            game_id=game.pk,
            pace=game.bot_pace,
            state=state,
            seq=game.seq,
            events=[],
            user_by_seat={index: seat.user_id for index, seat in seats.items()},
            bot_due=bot_due,
            live=game.clock == Game.Clock.LIVE,
            notification_ids=ids,
            deadline=game.deadline,
            turn_seconds=game.turn_seconds,
        )
    return game
