"""Provably fair dice: the seed's hash is public from the start, the seed itself at the end, and anyone can
replay the game from it and check every roll: on the fair-dice page, or from the downloaded log with the engine
alone (`python -m rules.tools.fairlog log.json`, no server needed)."""

from __future__ import annotations

from typing import Any

import rules
from rules.tools.fairlog import verify_log

from .models import Game, Move


def seed_revealed(game: Game) -> bool:
    """The seed is revealed only by the game's real end: its engine state has a winner. A status set to
    "finished" by hand (an admin, a bug) reveals nothing, or the rest of a running game's dice would be known."""
    state = game.state if isinstance(game.state, dict) else {}
    return game.status == Game.Status.FINISHED and game.seed is not None and state.get("winner") is not None


def game_log(game: Game) -> dict[str, Any]:
    """The whole game as the engine needs it to replay: published only once the seed is revealed."""
    return {
        "game": game.pk,
        "scenario": game.scenario,
        "players": game.seat_count,
        "options": game.options,
        "commitment": game.seed_commitment,
        "seed": str(game.seed),  # 62 bits: as a string, JSON readers lose no digit
        "salt": game.seed_salt,  # hashed with the seed into the commitment
        "moves": [
            {"seq": seq, "seat": seat, "action": action, "events": events}
            for seq, seat, action, events in Move.objects.filter(game=game)
            .order_by("seq")
            .values_list("seq", "seat", "action", "events")
        ],
    }


def verify(game: Game) -> dict[str, Any]:
    """Replay a finished game from its revealed seed: the commitment, every roll and the final state must match.
    A replay that fails says so ("verification failed"), never an error page."""
    result: dict[str, Any] = {"game": game.pk, "commitment": game.seed_commitment, "verifiable": False}
    if not seed_revealed(game):
        result["reason"] = "The seed is revealed when the game ends."
        return result
    log = game_log(game)
    replay = verify_log(log)
    result.update(
        verifiable=True, seed=str(game.seed), salt=game.seed_salt, **{k: replay[k] for k in ("commitment_ok", "rolls")}
    )
    result["mismatches"] = replay["mismatches"] + ([{"error": replay["error"]}] if replay["error"] else [])
    result["final_state_ok"] = False
    if not result["mismatches"]:
        state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
        for move in log["moves"]:
            rules.apply(state, move["seat"], move["action"])
        result["final_state_ok"] = rules.dump(state) == game.state
    result["ok"] = replay["ok"] and result["final_state_ok"]
    return result
