"""Positions for the bots' tests, built through the engine's API: a base game after a set-up played by medium
bots, with the hands a test wants (rules.position recomputes the bank and everything derived)."""

from __future__ import annotations

import functools
import json
from typing import Any

import rules
from rules.ai import MediumBot, choose_for
from rules.constants import RESOURCES


@functools.cache
def set_up_game(seed: int, players: int) -> str:
    """A base game just after set-up, played by medium bots with seat 0 first, the first player about to roll:
    its description as JSON, so that each caller gets its own copy."""
    state = rules.new_game("base", players, seed=seed, options={"seat_order": "fixed"})
    bots = [MediumBot(seed=s) for s in range(players)]
    while state.phase != "roll":
        seat = rules.to_move(state)[0]
        rules.apply(state, seat, choose_for(state, seat, bots[seat]))
    return json.dumps(rules.describe(state))


def after_set_up(hands: dict[int, list[int]] | None = None, seed: int = 11, players: int = 4) -> dict[str, Any]:
    """The description of `set_up_game` with these seats' hands instead (the bank holds the rest)."""
    description = json.loads(set_up_game(seed, players))
    for seat, hand in (hands or {}).items():
        description["seats"][seat]["hand"] = dict(zip(RESOURCES, hand, strict=True))
    del description["bank"]
    return description


def main_phase(hands: dict[int, list[int]] | None = None, **fields: Any) -> rules.State:
    """The game just after set-up in the first player's main phase, dice 3 and 3 shown (no 7), with these hands;
    `fields` replace more of the description."""
    return rules.position({**after_set_up(hands), "phase": "main", "dice": [3, 3], **fields})
