"""A learned position value for the hard bot's searches: each seat's features go through a score, and a softmax
over seats gives each one's chance to win (a conditional logit). The score is linear, plus optional tanh hidden
units (`seat_score`); the weights live in `value_weights.py`, written by `bench/fit_value.py`, which fits them on
the positions of medium-bot self-play games (base game, every turn start), against who won. Issue 43 added four
features (how far the hand is from a city and from a settlement, up to two ready settlement spots, ore income):
held-out log-loss 1.0566, against 1.0638 for the previous 24 weights on the same 44,476 positions. Its third
round fitted a network of 16 hidden units on population games (`--styles`), better at predicting (1.0171
against 1.0350) but no stronger at play: the weights in use are the linear ones (docs/BOTS.md).
"""

from __future__ import annotations

import math
from operator import mul
from types import ModuleType

from ..constants import GENERIC_HARBOUR, PIPS
from ..scoring import victory_points
from ..state import GAME_OVER, State
from . import value_weights

FEATURES = (
    "victory points",
    "points to go, squared",
    "income (pips / 10)",
    "income x progress",
    "balanced income (sum of square roots)",
    "resources produced",
    "ore and grain income",
    "lumber and brick income",
    "wool income",
    "gold income",
    "cards in hand (up to 7)",
    "cards beyond 7",
    "knights held",
    "progress cards held",
    "knights played",
    "road length",
    "a settlement spot ready",
    "settlements to upgrade",
    "generic harbour",
    "matched 2:1 harbours",
    "settlements left in supply",
    "cities",
    "longest road held",
    "largest army held",
    "hand toward a city",
    "hand toward a settlement",
    "settlement spots ready (up to 2)",
    "ore income",
)



def seat_income(state: State, seat: int) -> list[float]:
    """Pips a seat's buildings collect per resource (cities twice, none under the robber), then gold."""
    topo = state.derived.topo
    tokens, terrain, city, robber = state.tokens, state.terrain, state.vertex_city, state.robber
    income = [0.0] * 6
    for v in state.seat_buildings[seat]:
        mult = 2 if city[v] else 1
        for h in topo.vertex_hexes[v]:
            token = tokens[h]
            if token and h != robber:
                t = terrain[h]
                if t < 5:
                    income[t] += PIPS[token] * mult
                elif t == 7:
                    income[5] += PIPS[token] * mult
    return income


def features(state: State, seat: int, progress: float) -> list[float]:
    """One seat's features; `progress` is the leader's share of the target (0 at the start, 1 at the end)."""
    topo = state.derived.topo
    income = seat_income(state, seat)
    upgradable = sum(not state.vertex_city[v] for v in state.seat_buildings[seat])
    vp = victory_points(state, seat)
    togo = max(0, state.vp_target - vp)
    total = sum(income) / 10
    hand = sum(state.hands[seat])
    cards = [a + b for a, b in zip(state.development[seat], state.development_new[seat], strict=True)]
    harbour = state.derived.vertex_harbour
    generic = matched = 0.0
    for v in state.seat_buildings[seat]:
        kind = harbour[v]
        if kind == GENERIC_HARBOUR:
            generic = 1.0
        elif kind >= 0:
            matched += income[kind] / 10
    ready: set[int] = set()
    owner = state.vertex_owner
    neighbors = topo.vertex_neighbors
    land = state.derived.land_vertex
    for e in state.seat_edges[seat]:
        for v in topo.edge_vertices[e]:
            if v not in ready and land[v] and owner[v] == -1 and all(owner[n] == -1 for n in neighbors[v]):
                ready.add(v)
        if len(ready) >= 2:
            break
    spot = float(bool(ready))
    held = state.hands[seat]
    return [
        vp,
        (togo / 10) ** 2,
        total,
        total * progress,
        sum(math.sqrt(x) for x in income[:5]) / 3,
        sum(1 for x in income[:5] if x > 0),
        (income[3] + income[4]) / 10,
        (income[0] + income[1]) / 10,
        income[2] / 10,
        income[5] / 10,
        min(hand, 7) / 7,
        max(0, hand - 7) / 7,
        cards[0],
        cards[1] + cards[2] + cards[3],
        state.development_used[seat][0],
        state.road_length[seat] / 5,
        spot,
        upgradable,
        generic,
        matched,
        state.supply[seat]["settlements"],
        sum(1 for v in state.seat_buildings[seat] if state.vertex_city[v]),
        float(state.longest_road == seat),
        float(state.largest_army == seat),
        (min(held[4], 3) + min(held[3], 2)) / 5,
        sum(min(held[r], 1) for r in range(4)) / 4,
        len(ready) / 2,
        income[4] / 10,
    ]


def all_features(state: State) -> list[list[float]]:
    points = [victory_points(state, s) for s in range(state.players)]
    progress = min(1.0, max(points) / max(1, state.vp_target))
    return [features(state, s, progress) for s in range(state.players)]


def seat_score(f: list[float], net: ModuleType = value_weights) -> float:
    """One seat's score from its features: the linear part, plus the hidden units' (tanh) corrections."""
    total = sum(map(mul, net.LINEAR, f))
    for unit, bias, out in zip(net.HIDDEN, net.HIDDEN_BIAS, net.OUTPUT, strict=True):
        total += out * math.tanh(bias + sum(map(mul, unit, f)))
    return total


def win_chances(state: State) -> list[float]:
    """Each seat's chance to win from here (a finished game: 1 for the winner)."""
    if state.phase == GAME_OVER:
        return [1.0 if s == state.winner else 0.0 for s in range(state.players)]
    scores = [seat_score(f) for f in all_features(state)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
