"""`{% load game_notices %}{% game_notices user %}`: where each of a player's games sends its notices, with a link to
that game's own choice (the profile page lists them; accounts/ never imports games/)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from ..models import Game, Seat

register = template.Library()


@register.inclusion_tag("games/_notices_by_game.html")
def game_notices(user: Any) -> dict[str, Any]:
    """The user's seats in games not over, each with where its notices go ("as my profile says" when the game has
    no choice of its own)."""
    labels = {**dict(get_user_model().NotifyBy.choices), "none": _("No notices for this game")}
    seats = (
        Seat.objects.filter(user=user, game__status__in=[Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.PAUSED])
        .select_related("game")
        .order_by("-game__pk")
    )
    rows = [
        {"game": seat.game, "choice": labels.get(seat.notify_by) if seat.notify_by else None} for seat in seats
    ]
    return {"rows": rows}
