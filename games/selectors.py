"""Reads: games for the lobby and for a user, and what a user may see of a game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

import rules

from . import clocks
from .access import seat_of
from .fairness import seed_revealed
from .live.frames import seat_clock
from .models import Game, Move, Seat
from .scenario_names import scenario_name


def open_public_games() -> QuerySet[Game]:
    return (
        Game.objects.filter(status=Game.Status.WAITING, visibility=Game.Visibility.PUBLIC)
        .filter(pk__in=Seat.objects.filter(user__isnull=True, bot="").values("game_id"))
        .prefetch_related("seats__user")
    )


def games_to_watch(limit: int = 20) -> list[Game]:
    """Public games in progress, the most recently started first, each with its scenario's name: anyone may
    watch them (a spectator sees only what every seat may see)."""
    games = list(
        Game.objects.filter(status=Game.Status.ACTIVE, visibility=Game.Visibility.PUBLIC)
        .order_by("-started_at", "-pk")
        .prefetch_related("seats__user")[:limit]
    )
    for game in games:
        game.scenario_name = scenario_name(game.scenario)
    return games


def _clock_runs(game: Game) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.deadline is not None
        and (game.clock == Game.Clock.ASYNC or bool(game.turn_seconds))
    )


def games_for_user(user) -> list[dict[str, Any]]:
    """Every game the user sits in; those waiting for them first, then active, waiting, finished."""
    rows = []
    games = Game.objects.filter(pk__in=Seat.objects.filter(user=user).values("game_id")).prefetch_related("seats__user")
    for game in games:
        seat = seat_of(game, user)
        waiting_on_me = False
        waiting_for: list[str] = []
        if game.status == Game.Status.ACTIVE and game.state and seat is not None:
            to_move = rules.to_move(rules.load(game.state))
            waiting_on_me = seat.index in to_move
            names = {
                s.index: (s.user.label if s.user else _("Bot %(n)s") % {"n": s.index + 1}) for s in game.seats.all()
            }
            waiting_for = [names[i] for i in to_move if i != seat.index]
        rows.append(
            {
                "game": game,
                "seat": seat,
                "waiting_on_me": waiting_on_me,
                "waiting_for": waiting_for,
                "scenario_name": scenario_name(game.scenario),
                # Only where a clock runs: a live game without a turn clock may hold a past disconnect grace.
                "deadline": game.deadline if _clock_runs(game) else None,
            }
        )
    order = {Game.Status.ACTIVE: 1, Game.Status.WAITING: 2, Game.Status.PAUSED: 3}
    rows.sort(key=lambda r: (not r["waiting_on_me"], order.get(r["game"].status, 4), -r["game"].pk))
    return rows


def game_view(game: Game, user) -> dict[str, Any]:
    """The game as this user may see it: their seat's view, or the spectator view."""
    seat = seat_of(game, user)
    index = seat.index if seat else None
    revealed = seed_revealed(game)
    data: dict[str, Any] = {
        "id": game.pk,
        "name": str(game),
        "status": game.status,
        "scenario": game.scenario,
        "seat_count": game.seat_count,
        "clock": game.clock,
        "visibility": game.visibility,
        "seq": game.seq,
        "your_seat": index,
        "seed_commitment": game.seed_commitment,
        # A string: the seed has 62 bits and JavaScript numbers only 53, so a number would be shown rounded.
        "seed": str(game.seed) if revealed else None,
        "seed_salt": game.seed_salt if revealed else None,
        # A paused game's clocks stand still: no deadline shows until it resumes.
        "deadline": game.deadline.isoformat() if game.deadline and game.status == Game.Status.ACTIVE else None,
        "timeout_policy": game.timeout_policy,
        "turn_seconds": game.turn_seconds,
        "seats": [
            {
                "index": s.index,
                "user": s.user.label if s.user else None,
                "bot": s.bot or None,
                **seat_clock(s, game.status == Game.Status.ACTIVE),
            }
            for s in game.seats.all()
        ],
        "view": None,
        "legal": [],
    }
    if game.state:
        state = rules.load(game.state)
        data["view"] = rules.view(state, index)
        # No action while a moderator pauses the game: players read why instead.
        playing = index is not None and game.status == Game.Status.ACTIVE
        data["legal"] = rules.legal_actions(state, index) if playing else []
    if game.status == Game.Status.PAUSED:
        data["pause_note"] = game.pause_note
    return data


def move_log(game: Game, user, since: int = 0) -> list[dict[str, Any]]:
    seat = seat_of(game, user)
    index = seat.index if seat else None
    return [
        {"seq": m.seq, "seat": m.seat, "events": rules.events_for(m.events, index)}
        for m in Move.objects.filter(game=game, seq__gt=since).order_by("seq")
    ]


def reliability(user: Any) -> dict[str, Any]:
    """The finished-game rate players see on profiles: games finished in their seat over those they left."""
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).count()
    left = user.games_abandoned
    total = finished + left
    return {"finished": finished, "abandoned": left, "rate": round(finished / total, 3) if total else None}


def search_games(
    *, status: str = "", scenario: str = "", player: str = "", stalled_days: int | None = None
) -> QuerySet[Game]:
    """Games for the moderators' search."""
    games = Game.objects.all().prefetch_related("seats__user")
    if status:
        games = games.filter(status=status)
    if scenario:
        games = games.filter(scenario=scenario)
    if player:
        seats = Seat.objects.filter(Q(user__username__icontains=player) | Q(user__display_name__icontains=player))
        games = games.filter(pk__in=seats.values("game_id"))
    if stalled_days:
        # Waiting on the same decision for more than N days: no move since then.
        cutoff = clocks.now() - timedelta(days=stalled_days)
        games = (
            games.filter(status=Game.Status.ACTIVE)
            .annotate(recent=Count("moves", filter=Q(moves__created_at__gte=cutoff)))
            .filter(recent=0, started_at__lt=cutoff)
        )
    return games.order_by("-pk")[:200]
