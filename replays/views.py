"""The statistics page of a game: charts drawn on the server (replays.charts), the figures in tables beside."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games import access
from infra.errors import GameError
from rules.stats import totals

from . import charts
from .labels import CARD_LABELS, GAINED_LABELS, LOST_LABELS, SPENT_LABELS
from .selectors import seat_names
from .stats import statistics_for


def _bars(title: str, names: dict[int, str], seats: list[dict[str, Any]], part: str, labels: dict, test_id: str):
    keys = list(labels)
    rows = [(names[s["seat"]], [sum(s[part][key].values()) for key in keys]) for s in seats]
    return charts.stacked_bars(title, rows, [str(labels[key]) for key in keys], test_id)


def _charts(stats: dict[str, Any], names: dict[int, str]) -> list[tuple[str, Any]]:
    """(title, chart) of each chart of a finished game."""
    seats = stats["seats"]
    points = stats["victory_points"]
    series = [
        (names[seat], charts.seat_colour(seat), [(entry["turn"], entry["points"][seat]) for entry in points])
        for seat in range(stats["players"])
    ]
    titles = {
        "points": _("Victory points over the turns"),
        "gained": _("Resources gained, by source"),
        "spent": _("Resources spent, by purpose"),
        "lost": _("Resources lost, by cause"),
        "awards": _("Longest Road and Largest Army over the turns"),
    }
    bands = [(_("Longest Road"), stats["longest_road"]), (_("Largest Army"), stats["largest_army"])]
    return [
        (titles["points"], charts.line_chart(titles["points"], series, _("Turn"), "chart-victory-points")),
        (titles["gained"], _bars(titles["gained"], names, seats, "gained", GAINED_LABELS, "chart-gained")),
        (titles["spent"], _bars(titles["spent"], names, seats, "spent", SPENT_LABELS, "chart-spent")),
        (titles["lost"], _bars(titles["lost"], names, seats, "lost", LOST_LABELS, "chart-lost")),
        (
            titles["awards"],
            charts.holders_chart(
                titles["awards"], bands, stats["turns"], names, _("Turn"), _("Nobody"), "chart-awards"
            ),
        ),
    ]


def _table(stats: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """Per seat: cards gained, spent, lost and held at the end, and development cards bought and played."""
    rows = []
    for seat in sorted(stats["seats"], key=lambda s: -s["victory_points"]):
        rows.append(
            {
                "name": names[seat["seat"]],
                "seat": seat["seat"],
                "points": seat["victory_points"],
                "gained": sum(totals(seat["gained"]).values()),
                "spent": sum(totals(seat["spent"]).values()),
                "lost": sum(totals(seat["lost"]).values()),
                "hand": sum(seat["hand"].values()),
                "bought": sum(seat["development_bought"].values()),
                "played": [(CARD_LABELS[card], n) for card, n in seat["development_played"].items() if n],
            }
        )
    return rows


def game_statistics(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game, _seat = access.game_for_viewer(game_id=game_id, user=request.user, invite=request.GET.get("invite"))
    except GameError:
        return render(request, "games/not_found.html", status=404)
    stats = statistics_for(game)
    names = seat_names(game)
    context: dict[str, Any] = {
        "game": game,
        "invite": request.GET.get("invite", "") if game.visibility == game.Visibility.PRIVATE else "",
        "stats": stats,
        "dice_title": _("Dice rolls"),
        "dice_chart": charts.dice_chart(
            _("Dice rolls"), stats["dice"], _("Expected from the odds of two dice"), "chart-dice"
        ),
        "rolls": sum(stats["dice"].values()),
    }
    if stats["complete"]:
        context["charts"] = _charts(stats, names)
        context["rows"] = _table(stats, names)
        context["winner"] = names.get(stats["winner"])
    return render(request, "replays/stats.html", context)
