"""Reads: the leaderboard of a mode, and a person's ratings with their history and recent games."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from games.models import Game, Seat
from infra.errors import GameError

from .models import Rating, RatingChange

MODES = tuple(Game.Clock.values)
LEADERBOARD_SIZE = 100
RECENT_GAMES = 10


def check_mode(mode: Any) -> str:
    if mode is None:
        return Game.Clock.LIVE
    if mode not in MODES:
        raise GameError("bad_mode", _("The mode is one of: %(modes)s.") % {"modes": ", ".join(MODES)})
    return mode


def _entry(rank: int, rating: Rating) -> dict[str, Any]:
    return {
        "rank": rank,
        "username": rating.user.username if rating.user_id else None,
        "name": rating.user.label if rating.user_id else rating.get_bot_display(),
        "bot": rating.bot or None,
        "rating": round(rating.value, 2),
        "mu": round(rating.mu, 4),
        "sigma": round(rating.sigma, 4),
        "games": rating.games,
        "wins": rating.wins,
    }


def _by_value(ratings: list[Rating]) -> list[Rating]:
    return sorted(ratings, key=lambda r: (-r.value, r.pk))


def leaderboard(mode: str) -> dict[str, Any]:
    """People with at least RATINGS_LEADERBOARD_MIN_GAMES rated games in `mode`, best first; and the bot levels,
    whose ratings come from their games against people."""
    least = settings.RATINGS_LEADERBOARD_MIN_GAMES
    people = Rating.objects.filter(mode=mode, user__isnull=False, games__gte=least, user__is_active=True)
    ranked = _by_value(list(people.select_related("user")))[:LEADERBOARD_SIZE]
    bots = _by_value(list(Rating.objects.filter(mode=mode, user__isnull=True, games__gt=0)))
    return {
        "mode": mode,
        "min_games": least,
        "players": [_entry(i, r) for i, r in enumerate(ranked, start=1)],
        "bots": [_entry(i, r) for i, r in enumerate(bots, start=1)],
    }


def person(username: Any) -> Any:
    user = get_user_model().objects.filter(username=username, is_active=True).first() if username else None
    if user is None:
        raise GameError("not_found", _("No such player."), status=404)
    return user


def history(rating: Rating) -> list[dict[str, Any]]:
    """Each rated game of this rating, oldest first, voided ones left out."""
    rows = rating.changes.filter(voided_at__isnull=True).select_related("game").order_by("pk")
    return [
        {
            "game": row.game_id,
            "name": str(row.game),
            "finished_at": row.game.finished_at.isoformat() if row.game.finished_at else None,
            "place": row.place,
            "left": row.left,
            "won": row.won,
            "before": round(row.before, 2),
            "after": round(row.after, 2),
        }
        for row in rows
    ]


def player_ratings(user: Any) -> dict[str, Any]:
    """A person's rating in each mode they were rated in, with its history."""
    ratings = {r.mode: r for r in Rating.objects.filter(user=user)}
    return {
        "username": user.username,
        "name": user.label,
        "ratings": [
            {
                "mode": mode,
                "rating": round(ratings[mode].value, 2),
                "mu": round(ratings[mode].mu, 4),
                "sigma": round(ratings[mode].sigma, 4),
                "games": ratings[mode].games,
                "wins": ratings[mode].wins,
                "history": history(ratings[mode]),
            }
            for mode in MODES
            if mode in ratings
        ],
    }


def recent_games(user: Any) -> list[dict[str, Any]]:
    """The person's last finished games, each with its place and rating change when it was rated."""
    seats = (
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
        .select_related("game")
        .order_by("-game__finished_at", "-game_id")[:RECENT_GAMES]
    )
    games = [seat.game for seat in seats]
    changes = {
        row.game_id: row
        for row in RatingChange.objects.filter(
            game__in=games, rating__user=user, voided_at__isnull=True
        ).select_related("rating")
    }
    return [
        {
            "game": game,
            "won": game.winner_seat == seat.index,
            "change": changes.get(game.pk),
            "delta": f"{changes[game.pk].delta:+.1f}" if game.pk in changes else None,
        }
        for game, seat in zip(games, seats, strict=True)
    ]
