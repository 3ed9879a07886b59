"""Check a finished game's published log with the engine alone: no server, no database.

    python -m rules.fairlog game-42-log.json

The log (from the game's fair-dice page, or GET /api/games/42/log/) holds the scenario, the options, the
revealed seed, the commitment published at the start, and every move (seat and action, with the events the
server recorded). Replaying the moves from the seed must give every roll (and every other chance outcome) the
server recorded, and the seed must hash to the commitment.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from . import IllegalAction, apply, new_game
from .chance import seed_commitment

CHANCE_EVENTS = ("rolled",)


def _rolls(events: list[dict[str, Any]]) -> list[Any]:
    return [event["dice"] for event in events if event.get("type") in CHANCE_EVENTS]


def verify_log(log: dict[str, Any]) -> dict[str, Any]:
    """{"ok", "commitment_ok", "rolls", "mismatches", "error"}: whether the log's dice follow from its seed."""
    result: dict[str, Any] = {"ok": False, "commitment_ok": False, "rolls": [], "mismatches": [], "error": None}
    try:
        seed = int(log["seed"])
        result["commitment_ok"] = seed_commitment(seed) == log["commitment"]
        state = new_game(scenario=log["scenario"], players=log["players"], seed=seed, options=log.get("options") or {})
        for move in log["moves"]:
            stored = _rolls(move.get("events", []))
            try:
                again = _rolls(apply(state, move["seat"], move["action"]))
            except IllegalAction as error:
                result["mismatches"].append({"seq": move["seq"], "error": f"{error.code}: {error.message}"})
                break
            result["rolls"].extend({"seq": move["seq"], "seat": move["seat"], "dice": dice} for dice in stored)
            if stored != again:
                result["mismatches"].append({"seq": move["seq"], "stored": stored, "replayed": again})
    except (KeyError, TypeError, ValueError) as error:
        result["error"] = f"not a game log: {error!r}"
        return result
    result["ok"] = result["commitment_ok"] and not result["mismatches"]
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    with open(argv[0], encoding="utf-8") as handle:
        result = verify_log(json.load(handle))
    if result["error"]:
        print(result["error"])
        return 2
    print(f"commitment {'matches the seed' if result['commitment_ok'] else 'DOES NOT MATCH the seed'}")
    print(f"rolls      {len(result['rolls'])} replayed, {len(result['mismatches'])} mismatched")
    for mismatch in result["mismatches"][:10]:
        print(f"  move {mismatch['seq']}: {mismatch}")
    print("verified: every roll follows from the published seed" if result["ok"] else "VERIFICATION FAILED")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
