"""What an authority outside the game may do to it: pause, resume or cancel it, give its clocks more time, have a
bot keep a person's seat for them, offer a seat, take a person out of their games while they may not play, and
replay its position.

These are the mechanics only, each inside the caller's transaction where it says so. Who may use them, the
reasons and the audit log belong to the caller (the `moderation` app); games never knows who moderates.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

import rules
from infra.errors import GameError

from .. import clocks, outbox
from ..models import Game, Move, Notification, Seat, SeatOffer
from .lobby import seat_leave
from .seats import seat_hand_to_bot

RUNNING = (Game.Status.ACTIVE, Game.Status.PAUSED)
# Which status each status change may start from.
STATUS_FROM = {
    Game.Status.CANCELLED: {Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.PAUSED},
    Game.Status.PAUSED: {Game.Status.ACTIVE},
    Game.Status.ACTIVE: {Game.Status.PAUSED},
}


def locked(game_id: Any) -> Game:
    """The game, locked for the caller's transaction; a 404 `not_found` when there is none."""
    game = Game.objects.select_for_update().filter(pk=game_id).first() if type(game_id) is int else None
    if game is None:
        raise GameError("not_found", _("No such game."), status=404)
    return game


def set_status(game: Game, status: str, note: str) -> str:
    """Cancel, pause or resume a locked game. A pause freezes the clock (the seconds left are kept and given back
    on resume) and players read `note` while it lasts. Returns the previous status."""
    if status not in STATUS_FROM:
        raise GameError("bad_status", _("A game can be cancelled, paused or resumed."))
    if game.status not in STATUS_FROM[status]:
        raise GameError("bad_status", _("Not possible from this game's status."), status=409)
    previous = game.status
    now = clocks.now()
    if status == Game.Status.PAUSED:
        clocks.pause(game, now)
        game.pause_note = note
    else:
        if previous == Game.Status.PAUSED:
            clocks.resume(game, now)
        game.paused_remaining = None
        game.pause_note = ""
    game.status = status
    game.save(update_fields=["status", "deadline", "paused_remaining", "pause_note"])
    if status == Game.Status.ACTIVE:
        outbox.clock_resumed(game.pk, game.seq, game.deadline, game.clock == Game.Clock.LIVE)
        outbox.seats_changed(game.pk)  # a bot whose turn came during the pause plays now
    outbox.game_changed(game.pk)
    return previous


def extend(game: Game, hours: int) -> dict[int, datetime]:
    """Give the people who owe a decision in a locked running or paused game `hours` more (`clocks.extend`).
    Returns each such seat's new deadline."""
    if type(hours) is not int or not 1 <= hours <= 24 * 30:
        raise GameError("bad_hours", _("Extend by 1 hour to 30 days."))
    if game.deadline is None or game.status not in RUNNING:
        raise GameError("no_deadline", _("This game has no running clock."), status=409)
    seats = clocks.extend(game, timedelta(hours=hours))
    game.save(update_fields=["deadline", "paused_remaining", "reminded_seq"])
    if game.status == Game.Status.ACTIVE and game.clock == Game.Clock.LIVE:
        outbox.timeout_at(game.pk, game.seq, game.deadline)  # the task queued for the old deadline finds time left
    outbox.game_changed(game.pk)  # open pages show the new deadlines
    return seats


def deadlines_stated(game: Game, seats: dict[int, datetime]) -> dict[str, Any]:
    """An account of an extension: the new deadlines (seats count from 1, as the pages show them); in a paused
    game, where they move on by the pause at resume, the hours each will have left then."""
    if game.status == Game.Status.PAUSED and game.paused_remaining is not None:
        frozen_at = game.deadline - timedelta(seconds=game.paused_remaining)
        left = {str(index + 1): round((d - frozen_at).total_seconds() / 3600, 2) for index, d in seats.items()}
        return {"hours_left": round(game.paused_remaining / 3600, 2), **({"seats_hours_left": left} if left else {})}
    stated: dict[str, Any] = {"deadline": game.deadline.isoformat()}
    if seats:
        stated["deadlines"] = {str(index + 1): d.isoformat() for index, d in seats.items()}
    return stated


def keep_seat_for(game: Game, user_id: Any) -> Seat:
    """A bot takes the seat of the named player in a locked game and keeps it for them (an offer gives it back).
    They did not choose to leave: it counts as an abandonment, removed if they take the seat back."""
    seat = game.seats.filter(user_id=user_id).select_related("user").first() if type(user_id) is int else None
    if seat is None:
        raise GameError("no_player", _("That person does not play in this game."), status=409)
    user = seat_hand_to_bot(seat=seat)
    seat.held_for = user
    seat.held_abandoned = True
    seat.save(update_fields=["held_for", "held_abandoned"])
    return seat


def may_sit(user: Any) -> None:
    user = type(user).objects.get(pk=user.pk)  # as stored now, not as the caller last read it
    if not user.is_active or user.banned or user.suspended_until is not None:
        raise GameError("suspended", _("A suspended or banned account cannot be offered a seat."), status=409)


def new_offer(seat: Seat, user: Any, by: Any, expires_at: datetime) -> SeatOffer:
    """One open offer per seat: a newer one ends the others."""
    SeatOffer.objects.filter(seat=seat, accepted_at__isnull=True).update(expires_at=clocks.now())
    return SeatOffer.objects.create(seat=seat, user=user, offered_by=by, expires_at=expires_at)


def offer_seat(game: Game, seat_index: Any, user: Any, by: Any, hours: int) -> SeatOffer:
    """Offer a seat a bot holds (or an empty one) of a locked running game to `user`; it changes hands when they
    accept, before the offer expires. A seat a person holds is never offered."""
    seat = game.seats.filter(index=seat_index).first() if type(seat_index) is int else None
    if seat is None:
        raise GameError("no_seat", _("No such seat."), status=404)
    if seat.user_id is not None:
        raise GameError("seat_taken", _("A person holds this seat: replace them with a bot first."), status=409)
    if game.status not in RUNNING:
        raise GameError("bad_status", _("Seats are offered only in running games."), status=409)
    if game.seats.filter(user=user).exists():
        raise GameError("already_seated", _("That user already plays in this game."), status=409)
    may_sit(user)
    return new_offer(seat, user, by, clocks.now() + timedelta(hours=hours))


def held_seat(game_id: Any, seat_index: Any) -> Seat:
    """A seat a bot keeps for the person it was taken from."""
    seat = Seat.objects.filter(game_id=game_id, index=seat_index).select_related("held_for").first()
    if seat is None or seat.held_for is None:
        raise GameError("no_seat", _("This seat was not taken from anyone."), status=409)
    return seat


def hold_seats(user: Any) -> None:
    """While a person may not play, a bot plays their seats in running games, without deadlines or mail, and keeps
    each seat for them (offered back afterwards). Not an abandonment. Inside the caller's transaction."""
    for seat in Seat.objects.filter(user=user, game__status__in=RUNNING).order_by("game_id"):
        game = Game.objects.select_for_update().get(pk=seat.game_id)
        seat_hand_to_bot(seat=seat, abandoned=False)
        seat.held_for = user
        seat.held_abandoned = False
        seat.deadline = seat.due_since = None  # no clock runs for the bot
        seat.save(update_fields=["held_for", "held_abandoned", "deadline", "due_since"])
        # Mail about a decision the bot now makes would ask them to log in to an account that cannot.
        Notification.objects.filter(game=game, user=user, sent_at__isnull=True, dropped_at__isnull=True).update(
            dropped_at=clocks.now()
        )
        if game.deadline is not None and game.state:
            to_move = set(rules.to_move(rules.load(game.state)))
            humans = [s for s in game.seats.filter(user__isnull=False) if s.index in to_move]
            if not humans:
                clocks.set_game_deadline(game, None)  # only bots must act now
            elif game.clock == Game.Clock.ASYNC:
                # The game's deadline is the earliest of those who still owe a decision.
                clocks.set_game_deadline(game, min((s.deadline for s in humans if s.deadline), default=None))
            game.save(update_fields=["deadline", "paused_remaining"])


def leave_lobbies(user: Any) -> int:
    """A person who may not play leaves each game not yet started (the seat is free for someone else; a game they
    created is cancelled, as when its creator leaves). Returns how many."""
    waiting = list(Seat.objects.filter(user=user, game__status=Game.Status.WAITING).values_list("game_id", flat=True))
    for game_id in waiting:
        seat_leave(game_id=game_id, user=user)
    return len(waiting)


def offer_seats_back(user: Any, by: Any, days: int) -> int:
    """Each seat a bot kept for the person is offered back to them for `days`. Returns how many."""
    offers = 0
    for seat in Seat.objects.filter(held_for=user, user__isnull=True, game__status__in=RUNNING):
        new_offer(seat, user, by, clocks.now() + timedelta(days=days))
        offers += 1
    return offers


def replay(game: Game, last: int) -> tuple[rules.State, list[dict[str, Any]]]:
    """The position after move `last`, replayed from the seed, and the moves that led there."""
    state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    log = []
    for move in Move.objects.filter(game=game, seq__lte=last).order_by("seq"):
        rules.apply(state, move.seat, move.action)
        dice = [e["dice"] for e in move.events if e.get("type") == "rolled"]
        log.append(
            {
                "seq": move.seq,
                "seat": move.seat,
                "action": move.action,
                "events": move.events,
                "dice": dice[0] if dice else None,
                "at": move.created_at,
                "cause": move.cause,
            }
        )
    return state, log
