"""A game's statistics as a viewer may see them: everything once the game is over (computed by `rules.stats` from
the move log, kept per game and move count), only the public dice histogram while it runs."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

import rules
from games.fairness import seed_revealed
from games.models import Game, Move
from rules.stats import game_statistics

from .models import GameStatistics


def _computed(game: Game) -> dict[str, Any]:
    state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    moves = Move.objects.filter(game=game).order_by("seq").values_list("seat", "action")
    return game_statistics(state, moves.iterator(chunk_size=500))


def finished_statistics(game: Game) -> dict[str, Any]:
    """The whole statistics of a game whose seed is revealed, from the kept row when it counts the same moves."""
    kept = GameStatistics.objects.filter(game=game, seq=game.seq).values_list("data", flat=True).first()
    if kept is not None:
        return kept
    data = _computed(game)
    try:
        with transaction.atomic():
            GameStatistics.objects.update_or_create(game=game, defaults={"seq": game.seq, "data": data})
    except IntegrityError:
        pass  # another request stored the same figures at the same moment
    return data


def dice_histogram(game: Game) -> dict[str, int]:
    """Rolls of each sum so far: public at every moment of the game."""
    history = (game.state or {}).get("dice_history") or [0] * 13
    return {str(n): history[n] for n in range(2, 13)}


def statistics_for(game: Game) -> dict[str, Any]:
    """What anyone who may see the game may see of its statistics: all of them once it is over (`complete`),
    else the dice alone, which every seat and spectator watches being rolled."""
    if seed_revealed(game):
        return {"complete": True, **finished_statistics(game)}
    return {"complete": False, "players": game.seat_count, "dice": dice_histogram(game)}
