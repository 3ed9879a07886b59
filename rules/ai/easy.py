"""The easy bot: greedy (cities, then settlements on good numbers, roads toward them, development cards, 4:1
toward its goal) that makes mistakes on purpose: a random legal action a quarter of the time. Also a
view-based uniform random bot, the baseline of the tournaments."""

from __future__ import annotations

import random
from typing import Any

from ..constants import PIPS, RESOURCE_INDEX
from . import heuristics as hx
from . import robber
from .cards import trade_helps
from .obs import Obs

Action = dict[str, Any]


class RandomBot:
    """Uniform over the legal actions; never makes domestic offers."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class EasyBot:
    """Greedy with deliberate slips (`mistakes`, default 25% of decisions with a choice)."""

    name = "easy"

    def __init__(self, seed: int = 0, mistakes: float = 0.25) -> None:
        self.rng = random.Random(seed)
        self.mistakes = mistakes

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < self.mistakes:
            return self.rng.choice(legal)
        return greedy(Obs.from_view(view), legal, self.rng)


def _pips(o: Obs, v: int) -> float:
    return sum(PIPS.get(o.tokens[h], 0) for h in o.derived.topo.vertex_hexes[v] if o.terrain[h] != 5)


def greedy(o: Obs, legal: list[Action], rng: random.Random) -> Action:
    by = hx.group(legal)
    for kind in ("build_city", "build_settlement"):
        if kind in by:
            return max(by[kind], key=lambda a: _pips(o, a["vertex"]) + rng.random() * 0.1)
    if "discard" in by:
        return max(by["discard"], key=lambda a: o.hand[RESOURCE_INDEX[next(iter(a["cards"]))]])
    if "choose_gold" in by:
        return min(by["choose_gold"], key=lambda a: o.hand[RESOURCE_INDEX[next(iter(a["cards"]))]])
    if "move_robber" in by or "move_pirate" in by:
        return max(by.get("move_robber", []) + by.get("move_pirate", []), key=lambda a: robber.robber_score(o, a))
    edges = by.get("build_road", []) + by.get("build_ship", [])
    if edges:
        return max(edges, key=lambda a: hx.edge_value(o, a["edge"]) + rng.random() * 0.1)
    if "roll" in by:
        return by["roll"][0]
    if "accept_trade" in by and o.trade is not None and trade_helps(o, o.trade["get"], o.trade["give"]):
        return by["accept_trade"][0]
    for kind in ("reject_trade", "cancel_trade", "move_token"):
        if kind in by:
            return by[kind][0]
    if "buy_development" in by:
        return by["buy_development"][0]
    for kind in ("play_knight", "play_road_building", "play_year_of_plenty", "play_monopoly"):
        if kind in by:
            return rng.choice(by[kind])
    if "trade_bank" in by:
        _, cost = hx.goal(o)
        need = [r for r in range(5) if o.hand[r] < cost[r]]
        for a in by["trade_bank"]:
            give = RESOURCE_INDEX[a["give"]]
            if RESOURCE_INDEX[a["get"]] in need and o.hand[give] - o.rates[give] >= cost[give]:
                return a
    return by.get("end_turn", legal)[0]
