"""Moderator actions on games, their seats and chat, and a moderator's look into a game. Each is checked (rank,
recusal, reason), done through `games.services.interventions` or `games.services.chat`, and written to the
audit log in the same transaction."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from games import access
from games.fairness import seed_revealed
from games.models import ChatMessage, Game, Seat, SeatOffer
from games.services import chat, interventions
from infra.errors import GameError
from ratings import services as ratings

from .. import recusal
from .common import audit, mail, reason_given, require_moderator

OFFER_HOURS = 48
OFFER_BACK_DAYS = 7
# A moderator's look at a game is audited once per visit: again after this long.
VISIT_SECONDS = 3600


def game_set_status(*, moderator, game_id: int, status: str, reason: str) -> Game:
    """Cancel, pause or resume a game. A pause freezes the clock (the seconds left are kept and given back on
    resume) and players read the reason while it lasts."""
    require_moderator(moderator)
    reason = reason_given(reason)
    if status not in interventions.STATUS_FROM:
        raise GameError("bad_status", _("A moderator can cancel, pause or resume a game."))
    with transaction.atomic():
        game = interventions.locked(game_id)
        recusal.check_game(moderator, game.pk)
        previous = interventions.set_status(game, status, reason)
        audit(moderator, f"game_{status}", reason, game=game, previous=previous)
    return game


def game_extend_deadline(*, moderator, game_id: int, hours: int, reason: str) -> Game:
    """Give the people who owe a decision `hours` more (`games.clocks.extend`), in a running or a paused game. The
    audit entry states the new deadlines (a paused game's: the time each will have when it resumes)."""
    require_moderator(moderator)
    reason = reason_given(reason)
    if type(hours) is not int or not 1 <= hours <= 24 * 30:
        raise GameError("bad_hours", _("Extend by 1 hour to 30 days."))
    with transaction.atomic():
        game = interventions.locked(game_id)
        recusal.check_game(moderator, game.pk)
        seats = interventions.extend(game, hours)
        stated = interventions.deadlines_stated(game, seats)
        audit(moderator, "deadline_extended", reason, game=game, hours=hours, **stated)
    return game


def seat_replace_with_bot(*, moderator, game_id: int, user_id: Any, reason: str) -> Seat:
    """A bot takes the seat of the named player and keeps it for them: "offer back" undoes it."""
    require_moderator(moderator)
    reason = reason_given(reason)
    with transaction.atomic():
        game = interventions.locked(game_id)
        recusal.check_game(moderator, game.pk)
        seat = interventions.keep_seat_for(game, user_id)
        audit(moderator, "seat_replaced", reason, game=game, target_user=seat.held_for, seat=seat.index + 1)
    return seat


def tell_offer(offer: SeatOffer) -> None:
    """The person offered a seat learns it by email, in their language, with the game and the deadline; the site
    tells them once too (`reports.notices_unseen`)."""
    mail(offer.user, "offer", {"offer": offer, "seat": offer.seat.index + 1, "game": offer.seat.game})


def seat_offer(*, moderator, game_id: int, seat_index: Any, user, reason: str, hours: int = OFFER_HOURS) -> SeatOffer:
    """Offer a seat a bot holds (or an empty one) to another user; it changes hands when they accept, before
    the offer expires. A seat a person holds is never offered."""
    require_moderator(moderator)
    recusal.check_offer(moderator, user)
    reason = reason_given(reason)
    with transaction.atomic():
        game = interventions.locked(game_id)
        recusal.check_game(moderator, game.pk)
        offer = interventions.offer_seat(game, seat_index, user, moderator, hours)
        audit(moderator, "seat_offered", reason, game=game, target_user=user, seat=offer.seat.index + 1, hours=hours)
        tell_offer(offer)
    return offer


def seat_offer_back(*, moderator, game_id: int, seat_index: Any, reason: str) -> SeatOffer:
    """Undo a replacement: offer the seat back to the person it was taken from."""
    require_moderator(moderator)
    with transaction.atomic():
        seat = interventions.held_seat(game_id, seat_index)
        return seat_offer(
            moderator=moderator,
            game_id=game_id,
            seat_index=seat_index,
            user=seat.held_for,
            reason=reason,
            hours=OFFER_BACK_DAYS * 24,
        )


def chat_set_hidden(*, moderator, message_id: Any, hidden: bool, reason: str, game_id: Any = None) -> ChatMessage:
    """Hide a chat line from everyone (or show it again): every open page updates at once. With `game_id`, the
    line must be one of that game's (a 404 `no_message` otherwise, and nothing changes)."""
    require_moderator(moderator)
    reason = reason_given(reason)
    with transaction.atomic():
        messages = ChatMessage.objects.filter(pk=message_id) if type(message_id) is int else ChatMessage.objects.none()
        if game_id is not None:
            messages = messages.filter(game_id=game_id)
        found = messages.values_list("game_id", flat=True).first()
        if found is None:
            raise GameError("no_message", _("No such message in this game."), status=404)
        recusal.check_game(moderator, found)
        message = chat.set_hidden(message_id, hidden)
        action = "chat_hidden" if hidden else "chat_shown"
        audit(moderator, action, reason, game=message.game, target_user=message.user, message=message.pk)
    return message


def game_void_rating(*, moderator, game_id: int, reason: str) -> int:
    """Take a finished game's effect off every rating it changed (collusion, a stolen account), rating later games
    again; audited. Returns how many ratings it touched."""
    require_moderator(moderator)
    reason = reason_given(reason)
    with transaction.atomic():
        game = interventions.locked(game_id)
        recusal.check_game(moderator, game.pk)
        voided = ratings.void_game(game, moderator)
        audit(moderator, "rating_voided", reason, game=game, ratings=voided)
    return voided


def first_look(session: Any, key: str) -> bool:
    """True the first time in a visit (per session and `key`, once per `VISIT_SECONDS`) a moderator looks: a look
    is audited once per visit, not per page load. Marks the session; the caller saves it if it is not a request's."""
    now = timezone.now().timestamp()
    if now - session.get(key, 0) < VISIT_SECONDS:
        return False
    session[key] = now
    return True


def watch_audit(*, viewer: Any, game_id: int, session: Any) -> bool:
    """A moderator (or staff) who does not play in a private game watches its board: audited once per visit
    (pages and sockets of one session share it). Call only for a viewer without a seat; True when recorded."""
    if not access.is_moderator(viewer) or session is None:
        return False
    game = Game.objects.filter(pk=game_id, visibility=Game.Visibility.PRIVATE).first()
    if game is None or not first_look(session, f"mod-watch-{game_id}"):
        return False
    audit(viewer, "game_watched", "watching the board", game=game)
    return True


def position(
    *, moderator, game_id: int, seq: int | None = None, reveal: bool = False, reason: str | None = None
) -> dict[str, Any]:
    """The position after move `seq` (default: now), replayed from the seed, for moderators not recused from the
    game. Hidden information (hands, development cards, what moves drew) only with `reveal`; a `reason` records
    the reveal in the audit log (a caller that already recorded this visit's reveal passes none)."""
    require_moderator(moderator)
    recusal.check_game(moderator, game_id)
    if reason is not None:
        reason = reason_given(reason)
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seed is None:
        raise GameError("not_found", _("No such started game."), status=404)
    last = game.seq if seq is None else seq
    if type(last) is not int or last < 0:
        raise GameError("bad_seq", _("No such move."))
    if last > game.seq:  # a well-formed move number past the game's end: no such position
        raise GameError("bad_seq", _("No such move."), status=404)
    state, log = interventions.replay(game, last)
    if reveal and reason is not None:
        audit(moderator, "position_viewed", reason, game=game, seq=last)
    data = rules.dump(state)
    revealed = seed_revealed(game)
    shown = {
        "seq": last,
        "hands": data["hands"],
        "development": data["development"],
        "development_new": data["development_new"],
        # The seed and the deck order it gave tell a running game's future dice and cards: only once the seed is
        # revealed by the game's real end.
        "deck": data["deck"] if revealed else None,
        "seed": str(game.seed) if revealed else None,  # a string: JavaScript numbers would round 62 bits
        "view": rules.view(state, None),
        "log": [{**m, "at": m["at"].isoformat()} for m in log],
        "moves": log,
    }
    return {**shown, "revealed": True} if reveal else recusal.conceal(shown)
