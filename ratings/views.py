"""The ratings pages: the leaderboard of each mode, and a person's page (ratings with their charts, recent
games)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.models import Game
from infra.errors import GameError
from replays import charts

from . import selectors

MODE_LABELS = dict(Game.Clock.choices)


def leaderboard(request: HttpRequest) -> HttpResponse:
    mode = request.GET.get("mode") or Game.Clock.LIVE
    if mode not in selectors.MODES:
        mode = Game.Clock.LIVE
    board = selectors.leaderboard(mode)
    modes = [(value, MODE_LABELS[value]) for value in selectors.MODES]
    return render(request, "ratings/leaderboard.html", {"board": board, "mode": mode, "modes": modes})


def history_chart(name: str, history: list[dict[str, Any]]) -> Any:
    """The rating after each rated game (game 0: before the first)."""
    points = [(0, history[0]["before"])] if history else []
    points += [(number, entry["after"]) for number, entry in enumerate(history, start=1)]
    return charts.line_chart(
        _("Rating of %(name)s over their rated games") % {"name": name},
        [(_("Rating"), charts.seat_colour(1), points)],
        _("Rated games"),
        "chart-rating",
    )


def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        user = selectors.person(username)
    except GameError:
        return render(request, "ratings/no_player.html", status=404)
    data = selectors.player_ratings(user)
    for entry in data["ratings"]:
        entry["label"] = MODE_LABELS[entry["mode"]]
        entry["chart"] = history_chart(user.label, entry["history"])
    context = {"person": user, "data": data, "recent": selectors.recent_games(user)}
    return render(request, "ratings/player.html", context)
