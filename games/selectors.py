"""Reads: games for the lobby and for a user, and what a user may see of a game."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

import rules

from .models import Game, Move, Seat


def open_public_games() -> QuerySet[Game]:
    return (
        Game.objects.filter(status=Game.Status.WAITING, visibility=Game.Visibility.PUBLIC)
        .filter(pk__in=Seat.objects.filter(user__isnull=True, bot="").values("game_id"))
        .prefetch_related("seats__user")
    )


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


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
            names = {s.index: (s.user.label if s.user else f"🤖 {s.index + 1}") for s in game.seats.all()}
            waiting_for = [names[i] for i in to_move if i != seat.index]
        rows.append(
            {
                "game": game,
                "seat": seat,
                "waiting_on_me": waiting_on_me,
                "waiting_for": waiting_for,
                "deadline": game.deadline,
            }
        )
    order = {Game.Status.ACTIVE: 1, Game.Status.WAITING: 2, Game.Status.PAUSED: 3}
    rows.sort(key=lambda r: (not r["waiting_on_me"], order.get(r["game"].status, 4), -r["game"].pk))
    return rows


def game_view(game: Game, user) -> dict[str, Any]:
    """The game as this user may see it: their seat's view, or the spectator view."""
    seat = seat_of(game, user)
    index = seat.index if seat else None
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
        "seed": game.seed if game.status == Game.Status.FINISHED else None,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "timeout_policy": game.timeout_policy,
        "seats": [
            {
                "index": s.index,
                "user": s.user.label if s.user else None,
                "bot": s.bot or None,
                "vacation_until": s.vacation_until.isoformat() if s.vacation_until else None,
            }
            for s in game.seats.all()
        ],
        "view": None,
        "legal": [],
    }
    if game.state:
        state = rules.load(game.state)
        data["view"] = rules.view(state, index)
        data["legal"] = rules.legal_actions(state, index) if index is not None else []
    return data


def move_log(game: Game, user, since: int = 0) -> list[dict[str, Any]]:
    seat = seat_of(game, user)
    index = seat.index if seat else None
    return [
        {"seq": m.seq, "seat": m.seat, "events": rules.events_for(m.events, index)}
        for m in Move.objects.filter(game=game, seq__gt=since).order_by("seq")
    ]
