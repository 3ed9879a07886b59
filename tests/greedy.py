"""A test driver that reads the whole state: cities first, then settlements on good numbers, then roads toward them;
4:1 (or better) toward a goal. Tests use it to drive a seat quickly and deterministically through the services;
the site's bots (rules.ai) decide from a seat's view only.
"""

from __future__ import annotations

import random
from typing import Any

from rules.constants import CITY_COST, DEVELOPMENT_COST, PIPS, PRODUCING, RESOURCES, SETTLEMENT_COST
from rules.state import State

Action = dict[str, Any]


def vertex_value(state: State, vertex: int) -> float:
    """Pips of the producing hexes around a vertex, with a bonus for variety and a harbour."""
    topo = state.derived.topo
    pips = 0
    kinds = set()
    for h in topo.vertex_hexes[vertex]:
        terrain = state.terrain[h]
        if terrain in PRODUCING and state.tokens[h]:
            pips += PIPS[state.tokens[h]]
            kinds.add(terrain)
    harbour = 0.5 if state.derived.vertex_harbour[vertex] >= 0 else 0.0
    return pips + 0.5 * len(kinds) + harbour


class GreedyBot:
    """Cities first, then settlements on good numbers, then roads toward them; 4:1 (or better) toward a goal."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int, actions: list[Action]) -> Action:
        by_type: dict[str, list[Action]] = {}
        for action in actions:
            by_type.setdefault(action["type"], []).append(action)
        for kind in ("build_city", "build_settlement"):
            if kind in by_type:
                return max(by_type[kind], key=lambda a: vertex_value(state, a["vertex"]))
        if "build_road" in by_type:
            return max(by_type["build_road"], key=lambda a: self._road_value(state, a["edge"]))
        if "discard" in by_type:
            hand = state.hands[seat]
            return max(by_type["discard"], key=lambda a: hand[RESOURCES.index(next(iter(a["cards"])))])
        if "move_robber" in by_type:
            return max(by_type["move_robber"], key=lambda a: self._robber_value(state, seat, a))
        if "play_knight" in by_type and state.robber >= 0 and self._suffers_robber(state, seat):
            return by_type["play_knight"][0]
        if "roll" in by_type:
            return by_type["roll"][0]
        if "accept_trade" in by_type and self._trade_helps(state, seat):
            return by_type["accept_trade"][0]
        if "reject_trade" in by_type:
            return by_type["reject_trade"][0]
        if "cancel_trade" in by_type:
            return by_type["cancel_trade"][0]
        if "play_year_of_plenty" in by_type:
            return self._best_plenty(state, seat, by_type["play_year_of_plenty"])
        if "play_monopoly" in by_type:
            return self.rng.choice(by_type["play_monopoly"])
        if "play_road_building" in by_type:
            return by_type["play_road_building"][0]
        if "buy_development" in by_type:
            return by_type["buy_development"][0]
        if "trade_bank" in by_type:
            trade = self._bank_trade(state, seat, by_type["trade_bank"])
            if trade is not None:
                return trade
        if "play_knight" in by_type:
            return by_type["play_knight"][0]
        return by_type.get("end_turn", actions)[0]

    def _road_value(self, state: State, edge: int) -> float:
        owner = state.vertex_owner
        topo = state.derived.topo
        best = 0.0
        for v in topo.edge_vertices[edge]:
            if owner[v] == -1 and all(owner[n] == -1 for n in topo.vertex_neighbors[v]):
                best = max(best, vertex_value(state, v))
        return best + self.rng.random() * 0.1

    def _robber_value(self, state: State, seat: int, action: Action) -> float:
        topo = state.derived.topo
        pips = PIPS.get(state.tokens[action["hex"]], 0)
        score = 0.0
        for v in topo.hex_vertices[action["hex"]]:
            owner = state.vertex_owner[v]
            if owner == seat:
                score -= 10 * pips
            elif owner >= 0:
                score += pips * (2 if state.vertex_city[v] else 1)
        if "victim" in action:
            score += sum(state.hands[action["victim"]]) * 0.1
        return score

    def _suffers_robber(self, state: State, seat: int) -> bool:
        return any(state.vertex_owner[v] == seat for v in state.derived.topo.hex_vertices[state.robber])

    def _goal(self, state: State, seat: int) -> tuple[int, ...]:
        if state.supply[seat]["cities"] and any(not state.vertex_city[v] for v in state.seat_buildings[seat]):
            hand = state.hands[seat]
            if hand[3] + hand[4] >= 3:
                return CITY_COST
        if state.supply[seat]["settlements"]:
            return SETTLEMENT_COST
        return DEVELOPMENT_COST

    def _trade_helps(self, state: State, seat: int) -> bool:
        trade = state.trade
        goal = self._goal(state, seat)
        hand = state.hands[seat]
        gets = trade["give"]
        gives = trade["get"]
        return any(gets[r] and hand[r] < goal[r] for r in range(5)) and all(
            not gives[r] or hand[r] - gives[r] >= goal[r] for r in range(5)
        )

    def _best_plenty(self, state: State, seat: int, options: list[Action]) -> Action:
        goal = self._goal(state, seat)
        hand = state.hands[seat]

        def shortfall_after(action: Action) -> int:
            after = list(hand)
            for name in action["resources"]:
                after[RESOURCES.index(name)] += 1
            return sum(max(0, goal[r] - after[r]) for r in range(5))

        return min(options, key=shortfall_after)

    def _bank_trade(self, state: State, seat: int, options: list[Action]) -> Action | None:
        goal = self._goal(state, seat)
        hand = state.hands[seat]
        missing = [r for r in range(5) if hand[r] < goal[r]]
        if not missing:
            return None
        rates = state.harbour_rates(seat)
        for action in options:
            give = RESOURCES.index(action["give"])
            get = RESOURCES.index(action["get"])
            if get in missing and hand[give] - rates[give] >= goal[give]:
                return action
        return None
