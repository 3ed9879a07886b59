"""Check a finished game's published log with the engine alone: no server, no database.

    python -m rules.tools.fairlog game-42-log.json

The log (from the game's fair-dice page, or GET /api/games/42/log/) holds the scenario, the options, the
revealed seed, the commitment published at the start, and every move (seat and action, with the events the
server recorded). The check passes when the seed hashes to the commitment and, replaying the moves from the seed,
every move gives exactly the events the server recorded: every roll, development-card draw, stolen card, fog
reveal and every other outcome, chance or not. The only events the engine does not make are the server's notes
of why it made a move (a standing order, a timeout, a seat handed to a bot), which may open a move's events.

Exit codes: 0 verified, 1 verification failed, 2 not a readable game log.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .. import IllegalAction, apply, new_game
from ..chance import seed_commitment

# The server's notes that open a move's events (games/services/moves.py, timeouts.py): why it made the move.
SERVER_NOTES = frozenset({"standing_order", "timeout", "seat_replaced"})

USAGE = "usage: python -m rules.tools.fairlog game-log.json"


class MalformedLog(ValueError):
    """The file is not a game log as the server publishes it."""


def _as_json(value: Any) -> Any:
    """`value` as it reads back from JSON (tuples become lists, integer keys strings), to compare with the log."""
    return json.loads(json.dumps(value))


def _checked_log(log: Any) -> tuple[int, list[dict[str, Any]]]:
    """The seed and the moves of a well-formed log; MalformedLog naming what is wrong otherwise."""
    if not isinstance(log, dict):
        raise MalformedLog("not a game log: the file must hold a JSON object")
    missing = [key for key in ("scenario", "players", "seed", "commitment", "moves") if key not in log]
    if missing:
        raise MalformedLog(f"not a game log: missing {', '.join(missing)}")
    if not isinstance(log["seed"], str | int) or isinstance(log["seed"], bool) or not str(log["seed"]).isdigit():
        raise MalformedLog(f"not a game log: the seed is not a whole number: {log['seed']!r}")
    if not isinstance(log["commitment"], str):
        raise MalformedLog("not a game log: the commitment is not a string")
    if not isinstance(log.get("salt", ""), str):
        raise MalformedLog("not a game log: the salt is not a string")
    if not isinstance(log["moves"], list):
        raise MalformedLog("not a game log: moves is not a list")
    if log.get("options") is not None and not isinstance(log["options"], dict):
        raise MalformedLog("not a game log: options is not an object")
    for number, move in enumerate(log["moves"], start=1):
        where = f"move {number}"
        if not isinstance(move, dict):
            raise MalformedLog(f"not a game log: {where} is not an object")
        missing = [key for key in ("seq", "seat", "action", "events") if key not in move]
        if missing:
            raise MalformedLog(f"not a game log: {where} lacks {', '.join(missing)}")
        if type(move["seat"]) is not int:
            raise MalformedLog(f"not a game log: {where}'s seat is not a number")
        if not isinstance(move["events"], list) or not all(isinstance(event, dict) for event in move["events"]):
            raise MalformedLog(f"not a game log: {where}'s events are not a list of objects")
    return int(log["seed"]), log["moves"]


def _engine_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored events without the server's notes that may open them."""
    start = 0
    while start < len(events) and events[start].get("type") in SERVER_NOTES:
        start += 1
    return events[start:]


def _first_difference(stored: list[Any], replayed: list[Any]) -> dict[str, Any]:
    for index, (mine, theirs) in enumerate(zip(stored, replayed, strict=False)):
        if mine != theirs:
            return {"event": index, "stored": mine, "replayed": theirs}
    index = min(len(stored), len(replayed))
    return {
        "event": index,
        "stored": stored[index] if index < len(stored) else None,
        "replayed": replayed[index] if index < len(replayed) else None,
    }


def verify_log(log: Any) -> dict[str, Any]:
    """{"ok", "commitment_ok", "rolls", "events", "mismatches", "error"}: whether every event of the log follows
    from its seed. `error` is set (and `ok` false) when the log is not a readable game log."""
    result: dict[str, Any] = {
        "ok": False,
        "commitment_ok": False,
        "rolls": [],
        "events": 0,
        "mismatches": [],
        "error": None,
    }
    try:
        seed, moves = _checked_log(log)
        result["commitment_ok"] = seed_commitment(seed, log.get("salt") or "") == log["commitment"]
        try:
            state = new_game(
                scenario=log["scenario"], players=log["players"], seed=seed, options=log.get("options") or {}
            )
        except Exception as error:  # noqa: BLE001 - any refusal of the set-up is a log this engine cannot replay
            raise MalformedLog(f"not a game log: cannot set up its game: {error!r}") from None
    except MalformedLog as error:
        result["error"] = str(error)
        return result
    for move in moves:
        stored = _engine_events(move["events"])
        try:
            replayed = _as_json(apply(state, move["seat"], move["action"]))
        except IllegalAction as error:
            result["mismatches"].append({"seq": move["seq"], "error": f"{error.code}: {error.message}"})
            break
        except Exception as error:  # noqa: BLE001 - an action the engine cannot even read does not replay either
            result["mismatches"].append({"seq": move["seq"], "error": f"cannot replay: {error!r}"})
            break
        result["events"] += len(replayed)
        result["rolls"].extend(
            {"seq": move["seq"], "seat": move["seat"], "dice": event.get("dice")}
            for event in stored
            if event.get("type") == "rolled"
        )
        if stored != replayed:
            result["mismatches"].append({"seq": move["seq"], **_first_difference(stored, replayed)})
    result["ok"] = result["commitment_ok"] and not result["mismatches"]
    return result


def main(argv: list[str]) -> int:
    """Verify the log file named in `argv`; print the verdict. 0 verified, 1 failed, 2 unreadable."""
    if len(argv) != 1:
        print(USAGE)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as handle:
            log = json.load(handle)
    except OSError as error:
        print(f"cannot read {argv[0]}: {error.strerror or error}")
        return 2
    except (ValueError, RecursionError) as error:  # JSONDecodeError and bad UTF-8 are ValueErrors
        print(f"not a game log: {argv[0]} is not JSON ({error})")
        return 2
    result = verify_log(log)
    if result["error"]:
        print(result["error"])
        return 2
    print(f"commitment {'matches the seed' if result['commitment_ok'] else 'DOES NOT MATCH the seed'}")
    print(
        f"moves      {len(log['moves'])} replayed: {result['events']} events, {len(result['rolls'])} rolls;"
        f" {len(result['mismatches'])} mismatched"
    )
    for mismatch in result["mismatches"][:10]:
        print(f"  move {mismatch['seq']}: {mismatch}")
    if result["ok"]:
        print("verified: every event of every move (rolls, cards drawn, steals, fog) follows from the published seed")
    else:
        print("VERIFICATION FAILED")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
