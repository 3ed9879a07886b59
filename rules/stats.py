"""Statistics of a game, read from its move log by replaying it: no bookkeeping beside the engine's own state.

`game_statistics(state, moves)` applies each (seat, action) to `state` (a fresh `new_game` with the game's seed)
and watches what each move did to every hand. Each card that enters or leaves a hand is put down once, under the
move that moved it, so that for every seat and resource

    gained - spent - lost == the hand at the end.

Gained, by source: production (rolls), starting (the second set-up settlement), trade_players, trade_bank
(4:1, 3:1 and 2:1 harbours alike), steal (robber or pirate), development (Year of Plenty, Monopoly), gold
(Seafarers' gold fields), discovery (Seafarers' fog hexes). Spent, by purpose: road, ship, settlement, city,
development_card, trade_players, trade_bank. Lost, by cause: robber (stolen by the robber or pirate), discard
(after a 7), monopoly. A change no rule above explains lands in "other", so the identity always holds.

The result also holds the victory points of every seat after each turn, the holders of Longest Road and Largest
Army over time, development cards bought and played, and the dice histogram. It reveals everything: the caller
shows it only once the game is over (`games.fairness.seed_revealed`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import apply
from .constants import (
    CITY_COST,
    DEVELOPMENT_CARDS,
    DEVELOPMENT_COST,
    RESOURCES,
    ROAD_COST,
    SETTLEMENT_COST,
    SHIP_COST,
)
from .scoring import victory_points
from .state import MAIN, SETUP_SETTLEMENT, State

GAINED = ("production", "starting", "trade_players", "trade_bank", "steal", "development", "gold", "discovery", "other")
SPENT = ("road", "ship", "settlement", "city", "development_card", "trade_players", "trade_bank")
LOST = ("robber", "discard", "monopoly", "other")

# What each paid action costs, and under which purpose it is spent (in the main phase only: set-up pieces and
# Road Building's roads are free).
COSTS = {
    "build_road": ("road", ROAD_COST),
    "build_ship": ("ship", SHIP_COST),
    "build_settlement": ("settlement", SETTLEMENT_COST),
    "build_city": ("city", CITY_COST),
    "buy_development": ("development_card", DEVELOPMENT_COST),
}
# Moves whose gains and losses go under one source and one cause, whoever's hand they touched.
SIMPLE = {
    "roll": ("production", "other"),
    "move_ship": ("discovery", "other"),
    "move_robber": ("steal", "robber"),
    "move_pirate": ("steal", "robber"),
    "discard": ("other", "discard"),
    "play_monopoly": ("development", "monopoly"),
    "play_year_of_plenty": ("development", "other"),
    "choose_gold": ("gold", "other"),
    "trade_bank": ("trade_bank", "other"),
    "confirm_trade": ("trade_players", "other"),
}
PLAYED = {
    "play_knight": "knight",
    "play_road_building": "road_building",
    "play_year_of_plenty": "year_of_plenty",
    "play_monopoly": "monopoly",
}


def _counts(kinds: tuple[str, ...]) -> dict[str, list[int]]:
    return {kind: [0] * 5 for kind in kinds}


class _Seat:
    __slots__ = ("gained", "spent", "lost", "bought", "played")

    def __init__(self) -> None:
        self.gained = _counts(GAINED)
        self.spent = _counts(SPENT)
        self.lost = _counts(LOST)
        self.bought = dict.fromkeys(DEVELOPMENT_CARDS, 0)
        self.played = dict.fromkeys(DEVELOPMENT_CARDS, 0)


def _named(counts: list[int]) -> dict[str, int]:
    return dict(zip(RESOURCES, counts, strict=True))


def _book(record: _Seat, seat: int, mover: int, kind: str, phase: str, delta: list[int]) -> None:
    """Put one seat's hand change from one move under its source, purpose or cause."""
    if seat == mover and kind in COSTS and phase == MAIN:
        purpose, cost = COSTS[kind]
        spent = record.spent[purpose]
        for r in range(5):
            spent[r] += cost[r]
            delta[r] += cost[r]  # what is left is what the move brought besides (a fog hex's card)
        source, cause = "discovery", "other"
    elif kind == "build_settlement" and phase == SETUP_SETTLEMENT:
        source, cause = "starting", "other"
    elif kind in ("trade_bank", "confirm_trade"):
        source = cause = "trade_bank" if kind == "trade_bank" else "trade_players"
        for r in range(5):
            if delta[r] < 0:
                record.spent[cause][r] -= delta[r]
                delta[r] = 0
    elif kind in SIMPLE:
        source, cause = SIMPLE[kind]
    else:
        source, cause = ("discovery", "other") if kind in COSTS else ("other", "other")
    for r in range(5):
        if delta[r] > 0:
            record.gained[source][r] += delta[r]
        elif delta[r] < 0:
            record.lost[cause][r] -= delta[r]


def game_statistics(state: State, moves: Iterable[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """Replay `moves` ((seat, action) pairs, in order) on `state`, which it changes, and say what happened."""
    players = state.players
    records = [_Seat() for _ in range(players)]
    points: list[dict[str, Any]] = []
    longest: list[dict[str, int]] = []
    largest: list[dict[str, int]] = []
    count = 0
    for seat, action in moves:
        count += 1
        before = [list(hand) for hand in state.hands]
        phase, turn, road, army = state.phase, state.turn, state.longest_road, state.largest_army
        events = apply(state, seat, action)
        kind = action["type"]
        for s in range(players):
            delta = [a - b for a, b in zip(state.hands[s], before[s], strict=True)]
            if any(delta) or (s == seat and kind in COSTS):
                _book(records[s], s, seat, kind, phase, delta)
        if kind == "buy_development":
            drawn = next(e["card"] for e in events if e["type"] == "drew_development")
            records[seat].bought[drawn] += 1
        elif kind in PLAYED:
            records[seat].played[PLAYED[kind]] += 1
        if state.longest_road != road:
            longest.append({"turn": state.turn, "move": count, "seat": state.longest_road})
        if state.largest_army != army:
            largest.append({"turn": state.turn, "move": count, "seat": state.largest_army})
        if state.turn != turn or state.winner is not None:
            # The end of a turn (turn 0: the set-up), or the win that ends the game in the middle of one.
            points.append({"turn": turn, "move": count, "points": [victory_points(state, s) for s in range(players)]})
    return {
        "players": players,
        "moves": count,
        "turns": state.turn,
        "winner": state.winner,
        "dice": {str(n): state.dice_history[n] for n in range(2, 13)},
        "victory_points": points,
        "longest_road": longest,
        "largest_army": largest,
        "seats": [
            {
                "seat": s,
                "gained": {k: _named(v) for k, v in record.gained.items()},
                "spent": {k: _named(v) for k, v in record.spent.items()},
                "lost": {k: _named(v) for k, v in record.lost.items()},
                "hand": _named(state.hands[s]),
                "development_bought": dict(record.bought),
                "development_played": dict(record.played),
                "victory_points": victory_points(state, s),
            }
            for s, record in enumerate(records)
        ],
    }


def totals(counts: dict[str, dict[str, int]]) -> dict[str, int]:
    """Per resource, the sum over every source (or purpose, or cause) of one seat's gained (spent, lost) cards."""
    return {name: sum(by_kind[name] for by_kind in counts.values()) for name in RESOURCES}
