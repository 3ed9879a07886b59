"""Who may see a game, and in which seat: the one place pages, the REST API, sockets and services ask.

- Anyone may watch a public game; a private game shows only to its players, to whoever holds its invite token,
  and to moderators and staff (as spectators: they never see a hand).
- A person's seat is the seat their user holds now. It is looked up on every request and, on sockets, on every
  message (frames.py), never remembered from an earlier moment.
- Joining a private game takes its invite (`check_invite`), whichever road the join came by.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.utils.translation import gettext as _

from infra.errors import GameError

from .models import Game, Seat


def is_moderator(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and (user.is_staff or user.is_moderator))


def seat_of(game: Game, user: Any) -> Seat | None:
    """The seat `user` holds in `game` (seats are usually prefetched), or None."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def invite_matches(game: Game, invite: Any) -> bool:
    """Whether `invite` is the game's invitation token (compared in constant time; a token is ASCII, and anything
    else, which `compare_digest` refuses to compare, is simply not it)."""
    return (
        isinstance(invite, str)
        and bool(invite)
        and invite.isascii()
        and secrets.compare_digest(invite, game.invite_token)
    )


def may_view(game: Game, user: Any, seat: Seat | None, invite: Any = None) -> bool:
    return (
        game.visibility == Game.Visibility.PUBLIC
        or seat is not None
        or invite_matches(game, invite)
        or is_moderator(user)
    )


def game_for_viewer(*, game_id: int, user: Any, invite: Any = None) -> tuple[Game, Seat | None]:
    """The game and the user's seat in it (None: a spectator), or `not_found` when they may not see it: a private
    game is not even confirmed to exist."""
    game = Game.objects.prefetch_related("seats__user").filter(pk=game_id).first()
    if game is None:
        raise GameError("not_found", _("No such game."), status=404)
    seat = seat_of(game, user)
    if not may_view(game, user, seat, invite):
        raise GameError("not_found", _("No such game."), status=404)
    return game, seat


def player_seat(*, game_id: int, user: Any) -> tuple[Game, Seat]:
    """The game and the user's seat, for actions only players take (chat, reports, orders, vacation)."""
    game, seat = game_for_viewer(game_id=game_id, user=user)
    if seat is None:
        raise GameError("not_a_player", _("You have no seat in this game."), status=403)
    return game, seat


def check_invite(game: Game, user: Any, invite: Any) -> None:
    """Joining a private game takes its invite link."""
    if game.visibility == Game.Visibility.PRIVATE and not invite_matches(game, invite):
        raise GameError("invite_required", _("This game is private: use its invite link."), status=403)


def seat_index_in(seats: dict[str, int], user: Any) -> int | None:
    """The user's seat in a published seat map ({user id: seat}), or None."""
    if user is None or not user.is_authenticated:
        return None
    return seats.get(str(user.pk))
