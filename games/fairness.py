"""Provably fair dice: the seed's hash is public from the start, the seed itself at the end, and anyone can
replay the game from it and check every roll."""

from __future__ import annotations

from typing import Any

import rules
from rules.chance import seed_commitment

from .models import Game, Move


def verify(game: Game) -> dict[str, Any]:
    """Replay a finished game from its revealed seed: the commitment, every roll and the final state must match."""
    result: dict[str, Any] = {"game": game.pk, "commitment": game.seed_commitment, "verifiable": False}
    if game.status != Game.Status.FINISHED or game.seed is None:
        result["reason"] = "The seed is revealed when the game ends."
        return result
    result["verifiable"] = True
    result["seed"] = game.seed
    result["commitment_ok"] = seed_commitment(game.seed) == game.seed_commitment
    state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    rolls, mismatches = [], []
    for move in Move.objects.filter(game=game).order_by("seq"):
        replayed = rules.apply(state, move.seat, move.action)
        stored = [e["dice"] for e in move.events if e.get("type") == "rolled"]
        again = [e["dice"] for e in replayed if e.get("type") == "rolled"]
        for dice in stored:
            rolls.append({"seq": move.seq, "seat": move.seat, "dice": dice})
        if stored != again:
            mismatches.append({"seq": move.seq, "stored": stored, "replayed": again})
    result["rolls"] = rolls
    result["mismatches"] = mismatches
    result["final_state_ok"] = rules.dump(state) == game.state
    result["ok"] = result["commitment_ok"] and not mismatches and result["final_state_ok"]
    return result
