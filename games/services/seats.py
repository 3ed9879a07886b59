"""Who holds a seat once the game runs: handing it to a bot, taking an offered seat, orders and vacation.

Every change of who holds a seat goes through `seat_hand_to_bot` or `seat_offer_accept` and publishes a seat
event (outbox.seats_changed): open sockets then forward the frames of the seat their user holds now.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.dispatch import receiver
from django.utils.translation import gettext as _

from accounts.vacation import vacation_changed
from infra.errors import GameError

from .. import clocks, outbox, standing_orders
from ..models import Game, Seat, SeatOffer
from ..signals import seat_offer_accepted
from .lobby import locked_game

REPLACEMENT_BOT = Seat.Bot.MEDIUM
CLOCK_FIELDS = ["due_since", "deadline", "bank_seconds"]


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


def seat_offers_live(user: Any) -> QuerySet[SeatOffer]:
    """The offers `user` can still take: not taken, not expired, not replaced by a later offer of the same seat,
    for a seat no person holds, in a game still running. What the API and "My games" list."""
    return (
        SeatOffer.objects.filter(
            user_id=user.pk,
            accepted_at__isnull=True,
            seat__user__isnull=True,
            seat__game__status__in=(Game.Status.ACTIVE, Game.Status.PAUSED),
        )
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=clocks.now()))
        .exclude(Exists(SeatOffer.objects.filter(seat_id=OuterRef("seat_id"), pk__gt=OuterRef("pk"))))
        .select_related("seat__game")
        .order_by("pk")
    )


def seat_offer_accept(*, offer_id: int, user: Any) -> Seat:
    with transaction.atomic():
        offer = SeatOffer.objects.select_for_update().select_related("seat").filter(pk=offer_id, user=user).first()
        if offer is None or offer.accepted_at is not None:
            raise GameError("no_offer", _("There is no such offer for you."), status=404)
        if offer.expires_at is not None and offer.expires_at <= clocks.now():
            raise GameError("offer_expired", _("This offer has expired."), status=410)
        if SeatOffer.objects.filter(seat_id=offer.seat_id, pk__gt=offer.pk).exists():
            raise GameError(
                "offer_superseded", _("This seat has been offered again since: this offer is over."), status=410
            )
        if not user.is_active or user.banned or user.suspended_until is not None:
            raise GameError("suspended", _("A suspended account cannot take a seat."), status=403)
        game = locked_game(offer.seat.game_id)
        seat = Seat.objects.select_for_update().get(pk=offer.seat_id)
        if Seat.objects.filter(game_id=seat.game_id, user=user).exists():
            raise GameError("already_seated", _("You already play in this game."), status=409)
        # An offer never ejects anyone: only a seat a bot holds, or an empty one, changes hands.
        if seat.user_id is not None or game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise GameError("seat_taken", _("This seat is no longer free."), status=409)
        undone = seat.held_for_id == user.pk and _undo_abandonment(seat, user)
        seat.user = user
        seat.bot = ""
        seat.held_for = None
        seat.save(update_fields=["user", "bot", "held_for"])
        offer.accepted_at = clocks.now()
        offer.save(update_fields=["accepted_at"])
        seat_offer_accepted.send(sender=SeatOffer, offer=offer, seat=seat, user=user, abandonment_removed=undone)
        outbox.seats_changed(seat.game_id)
        outbox.game_changed(seat.game_id)
    return seat


def _undo_abandonment(seat: Seat, user: Any) -> bool:
    """The person takes back a seat kept for them. If keeping it charged them an abandonment (a moderator's
    replacement did; a seat kept during a suspension charged nothing), the charge is removed: an undo leaves no
    mark."""
    if not seat.held_abandoned:
        return False
    seat.held_abandoned = False
    seat.save(update_fields=["held_abandoned"])
    users = get_user_model().objects  # `user` may be a request's lazy object, whose type has no manager
    users.filter(pk=user.pk, games_abandoned__gt=0).update(games_abandoned=F("games_abandoned") - 1)
    return True


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
        now = clocks.now()
        seat.vacation_until = now + timedelta(days=days)
        seat.vacation_used_seconds += days * 86400
        seat.save(update_fields=["vacation_until", "vacation_used_seconds"])
        if clocks.retime(seat, now):
            # The clock of a decision already due stops for the vacation: it keeps the time it had left for
            # their return, and the days away are not charged to the time bank.
            seat.save(update_fields=CLOCK_FIELDS)
            _earliest_deadline(game)
        outbox.seats_changed(game.pk)
    return seat


def vacation_end(*, game_id: int, user: Any) -> Seat:
    """Back early in this game: the clock of a decision already due restarts now with the time it had left, and
    the unused vacation days are given back. An account-wide vacation no longer holds this game (the per-game
    override); it still holds the others."""
    with transaction.atomic():
        game = locked_game(game_id)
        seat = game.seats.select_related("user").filter(user=user).first()
        if seat is None:
            raise GameError("not_a_player", _("You have no seat in this game."), status=403)
        now = clocks.now()
        back = clocks.away_until(seat)
        if back is None or back <= now:
            raise GameError("not_away", _("You are not on vacation in this game."), status=409)
        if seat.vacation_until is not None and seat.vacation_until > now:
            unused = int((seat.vacation_until - now).total_seconds())
            seat.vacation_used_seconds = max(0, seat.vacation_used_seconds - unused)
        seat.vacation_until = None
        account = seat.user.vacation_until
        if account is not None and account > now:
            seat.account_vacation_waived = account
        clocks.retime(seat, now)
        seat.save(update_fields=["vacation_until", "vacation_used_seconds", "account_vacation_waived", *CLOCK_FIELDS])
        _earliest_deadline(game)
        outbox.seats_changed(game.pk)
    return seat


@receiver(vacation_changed, dispatch_uid="games.account_vacation_changed")
def account_vacation_changed(sender: Any, user: Any, **kwargs: Any) -> None:
    """The user's account-wide vacation started, grew or ended (inside the transaction that saved it): in each
    of their email games a decision already due re-times (waiting for their return, or running again from now
    with the time it had left), and the table sees their seat's new vacation and deadline. Connected in every
    process by `GamesConfig.ready`."""
    now = clocks.now()
    games = Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE, game__clock=Game.Clock.ASYNC)
    for game_id in sorted(games.values_list("game_id", flat=True)):
        game = locked_game(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            continue
        seat.user = user
        if clocks.retime(seat, now):
            seat.save(update_fields=CLOCK_FIELDS)
            _earliest_deadline(game)
        outbox.seats_changed(game.pk)


def _earliest_deadline(game: Game) -> None:
    """The game's deadline is the earliest of its seats' (the clock tick looks at games by it)."""
    game.deadline = game.seats.exclude(deadline=None).order_by("deadline").values_list("deadline", flat=True).first()
    game.save(update_fields=["deadline"])
