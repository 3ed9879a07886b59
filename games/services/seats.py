"""Who holds a seat once the game runs: handing it to a bot, taking an offered seat, orders and vacation.

Every change of who holds a seat goes through `seat_hand_to_bot` or `seat_offer_accept` and publishes a seat
event (outbox.seats_changed): open sockets then forward the frames of the seat their user holds now.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from .. import clock, outbox, standing_orders
from ..errors import GameError
from ..models import AuditEntry, Game, Seat, SeatOffer
from .lobby import locked_game

REPLACEMENT_BOT = Seat.Bot.MEDIUM


def seat_hand_to_bot(*, seat: Seat, abandoned: bool = True) -> Any:
    """The seat's person leaves it to a medium bot, inside the caller's transaction on a locked game. When the
    person did not choose to leave (a timeout, a moderator), it counts against their finished-game rate.
    Returns the person who held it."""
    user = seat.user
    seat.user = None
    seat.bot = REPLACEMENT_BOT
    seat.save(update_fields=["user", "bot"])
    if user is not None and abandoned:
        type(user).objects.filter(pk=user.pk).update(games_abandoned=F("games_abandoned") + 1)
    outbox.seats_changed(seat.game_id)
    return user


def seat_offer_accept(*, offer_id: int, user: Any) -> Seat:
    with transaction.atomic():
        offer = SeatOffer.objects.select_for_update().select_related("seat").filter(pk=offer_id, user=user).first()
        if offer is None or offer.accepted_at is not None:
            raise GameError("no_offer", _("There is no such offer for you."), status=404)
        if offer.expires_at is not None and offer.expires_at <= clock.now():
            raise GameError("offer_expired", _("This offer has expired."), status=410)
        if not user.is_active or user.banned or user.suspended_until is not None:
            raise GameError("suspended", _("A suspended account cannot take a seat."), status=403)
        game = locked_game(offer.seat.game_id)
        seat = Seat.objects.select_for_update().get(pk=offer.seat_id)
        if Seat.objects.filter(game_id=seat.game_id, user=user).exists():
            raise GameError("already_seated", _("You already play in this game."), status=409)
        # An offer never ejects anyone: only a seat a bot holds, or an empty one, changes hands.
        if seat.user_id is not None or game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise GameError("seat_taken", _("This seat is no longer free."), status=409)
        seat.user = user
        seat.bot = ""
        seat.held_for = None
        seat.save(update_fields=["user", "bot", "held_for"])
        offer.accepted_at = clock.now()
        offer.save(update_fields=["accepted_at"])
        if offer.offered_by_id is not None:
            AuditEntry.objects.create(
                moderator_id=offer.offered_by_id,
                action="seat_offer_accepted",
                reason="accepted by the player",
                game_id=seat.game_id,
                target_user=user,
                details={"seat": seat.index + 1, "offer": offer.pk},
            )
        outbox.seats_changed(seat.game_id)
        outbox.game_changed(seat.game_id)
    return seat


def standing_orders_set(*, game_id: int, user: Any, orders: Any) -> dict[str, Any]:
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


def vacation_start(*, game_id: int, user: Any, days: Any) -> Seat:
    """Pause this player's clock for `days`, within the per-game limit; others see it on the seat."""
    if type(days) is not int or days < 1:
        raise GameError("bad_days", _("Vacation lasts a whole number of days, at least one."))
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise GameError("not_found", _("No such game."), status=404)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise GameError("not_a_player", _("You have no seat in this game."), status=403)
        limit = settings.VACATION_LIMIT_DAYS * 86400
        if seat.vacation_used_seconds + days * 86400 > limit:
            left = (limit - seat.vacation_used_seconds) // 86400
            raise GameError(
                "vacation_limit", _("You have %(left)s vacation days left in this game.") % {"left": left}, status=409
            )
        now = clock.now()
        seat.vacation_until = now + timedelta(days=days)
        seat.vacation_used_seconds += days * 86400
        seat.save(update_fields=["vacation_until", "vacation_used_seconds"])
        if seat.deadline is not None and seat.due_since is not None:
            # The clock of a decision already due stops for the vacation: its deadline moves, and the days
            # away are not charged to the time bank.
            seat.deadline += timedelta(days=days)
            seat.due_since += timedelta(days=days)
            seat.save(update_fields=["deadline", "due_since"])
            _earliest_deadline(game)
        outbox.seats_changed(game.pk)
    return seat


def vacation_end(*, game_id: int, user: Any) -> Seat:
    """Back early: the clock of a decision already due restarts now with the time it had left, and the unused
    vacation days are given back."""
    with transaction.atomic():
        game = locked_game(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise GameError("not_a_player", _("You have no seat in this game."), status=403)
        now = clock.now()
        if seat.vacation_until is None or seat.vacation_until <= now:
            raise GameError("not_away", _("You are not on vacation in this game."), status=409)
        unused = int((seat.vacation_until - now).total_seconds())
        seat.vacation_used_seconds = max(0, seat.vacation_used_seconds - unused)
        seat.vacation_until = None
        fields = ["vacation_until", "vacation_used_seconds"]
        if seat.deadline is not None and seat.due_since is not None and seat.due_since > now:
            left = seat.deadline - seat.due_since
            seat.due_since, seat.deadline = now, now + left
            fields += ["due_since", "deadline"]
        seat.save(update_fields=fields)
        _earliest_deadline(game)
        outbox.seats_changed(game.pk)
    return seat


def _earliest_deadline(game: Game) -> None:
    """The game's deadline is the earliest of its seats' (the clock tick looks at games by it)."""
    game.deadline = game.seats.exclude(deadline=None).order_by("deadline").values_list("deadline", flat=True).first()
    game.save(update_fields=["deadline"])


def vacation_everywhere(*, user: Any, days: Any) -> dict[int, str]:
    """Go on vacation in every play-by-email game the user sits in; {game id: "away" or why not}."""
    outcome = {}
    games = Seat.objects.filter(
        user=user, game__status=Game.Status.ACTIVE, game__clock=Game.Clock.ASYNC
    ).values_list("game_id", flat=True)
    for game_id in games:
        try:
            vacation_start(game_id=game_id, user=user, days=days)
            outcome[game_id] = "away"
        except GameError as error:
            if error.code == "bad_days":
                raise
            outcome[game_id] = error.message
    return outcome
