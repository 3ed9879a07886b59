"""The hard bot: flat Monte Carlo search over determinised hidden information, on top of the medium policy.

For a decision with a real choice, the medium policy proposes a handful of candidate actions (its own pick
first). Each iteration samples one complete state consistent with the view (`determinize`), and plays every
candidate on a copy of that same sample with the same dice (common random numbers, so candidates are
compared on equal luck), then lets the medium policy play all seats for a short horizon and scores the
position (victory points, production, cards, with a win or loss dominating). The bot keeps the medium pick
unless another candidate beats it by a clear, paired margin. A decision with one legal action returns at
once; every decision stops at `time_limit` seconds (set-up decisions `SETUP_FACTOR` times that), and
never takes more than `HARD_CAP` (2 s) whatever the limit.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..actions import apply
from ..constants import CITY_COST, RESOURCE_INDEX, SETTLEMENT_COST
from ..errors import IllegalAction
from ..legal import cached_legal_actions, to_move
from ..scoring import victory_points
from ..state import GAME_OVER, State, clone
from . import heuristics as hx
from . import robber
from .determinize import determinize
from .medium import decide, observe_view, offer_allowed
from .obs import Obs
from .tracker import CardTracker
from .value import seat_income, win_chances

Action = dict[str, Any]
HARD_CAP = 2.0  # seconds: no decision takes longer, whatever time_limit says
SAFETY = 0.03  # at the cap, the search stops this long before it (a rollout checks the clock every 8 actions)
SETUP_FACTOR = 6.0  # set-up decisions (four a game, those that matter most) search this many times longer
FREE_FORM = ("discard", "choose_gold")
ROAD_GOAL = 2.0  # my own goal for a road toward a spot, above obs.DEFAULT_ROAD_GOAL: expand before buying cards
CARD_GOAL = 1.8  # my own development-card goal, above obs.DEFAULT_CARD_GOAL (catanatron's bots leave Largest Army free)


class HardBot:
    """Search player. `time_limit` bounds each decision (hard cap 2 s); `max_iterations` makes it
    deterministic for tests (it stops at whichever comes first)."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        time_limit: float = 1.0,
        max_iterations: int | None = None,
        candidates: int = 4,
        horizon: int | None = None,
        z: float = 1.0,
        tracker: CardTracker | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.tracker = tracker  # what the events showed of others' cards: whom an offer may go to
        self.time_limit = max(0.0, min(float(time_limit), HARD_CAP))
        self.max_iterations = max_iterations
        self.candidates = candidates
        self.z = z
        self.horizon = horizon
        self.searched = 0  # decisions that ran a search, and their iterations (for the benchmark)
        self.iterations = 0

    def observe(self, events: list[dict[str, Any]]) -> None:
        if self.tracker is not None:
            self.tracker.observe(events)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1 and legal[0]["type"] not in ("end_turn", *FREE_FORM):
            return legal[0]
        started = time.perf_counter()
        o = observe_view(view, self.tracker)
        o.card_goal, o.road_goal = CARD_GOAL, ROAD_GOAL
        base = decide(o, legal, self.rng, offer_ok=offer_allowed(o))
        if base["type"] in ("offer_trade", *FREE_FORM):
            return base
        options = candidates(o, legal, base, self.candidates)
        if len(options) < 2 or self.time_limit <= 0:
            return base
        budget = self.time_limit * (SETUP_FACTOR if o.phase in ("setup_settlement", "setup_road") else 1.0)
        deadline = started + min(budget, HARD_CAP - SAFETY)
        return self._search(view, o, options, deadline)

    def _search(self, view: dict[str, Any], o: Obs, options: list[Action], deadline: float) -> Action:
        me = o.me
        horizon = self.horizon if self.horizon is not None else _horizon(o)
        scores: list[list[float]] = [[] for _ in options]
        n = 0
        clock = time.perf_counter
        while clock() < deadline and (self.max_iterations is None or n < self.max_iterations):
            sample = determinize(view, self.rng)
            stream = sample.stream
            seed = self.rng.getrandbits(32)
            row = []
            for action in options:
                state = clone(sample)
                state.stream = stream
                try:
                    apply(state, me, action)
                except IllegalAction:
                    row.append(-1e9)
                    continue
                rollout(state, me, horizon, random.Random(seed), deadline=deadline)
                row.append(evaluate(state, me))
            if clock() > deadline:
                break  # an iteration cut short by the clock is dropped
            for i, value in enumerate(row):
                scores[i].append(value)
            n += 1
        self.searched += 1
        self.iterations += n
        if n < 2:
            return options[0]
        return pick(options, scores, self.z)


def pick(options: list[Action], scores: list[list[float]], z: float = 1.0) -> Action:
    """The medium pick (first) unless another candidate beats it by a paired margin of z standard errors."""
    base = scores[0]
    n = len(base)
    best, best_mean = options[0], 0.0
    for i in range(1, len(options)):
        diffs = [a - b for a, b in zip(scores[i], base, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > best_mean and mean > z * math.sqrt(var / n):
            best, best_mean = options[i], mean
    return best


def _horizon(o: Obs) -> int:
    """Turn ends to simulate: through the set-up and a first round, else to the end of my next turn."""
    if o.phase in ("setup_settlement", "setup_road"):
        return o.players + 1
    return o.players + 1


def candidates(o: Obs, legal: list[Action], base: Action, k: int) -> list[Action]:
    """A few distinct, sensible alternatives to the medium pick (which comes first)."""
    by = hx.group(legal)
    out: list[Action] = [base]

    def add(action: Action | None) -> None:
        if action is not None and action not in out and len(out) < k:
            out.append(action)

    if o.phase == "setup_settlement":
        ranked = sorted(by.get("build_settlement", []), key=lambda a: -hx.vertex_score(o, a["vertex"], setup=True))
        for a in ranked[:k]:
            add(a)
        return out
    if o.phase == "setup_road" or o.phase == "road_building":
        edges = by.get("build_road", []) + by.get("build_ship", [])
        for a in sorted(edges, key=lambda a: -hx.edge_value(o, a["edge"]))[: min(k, 3)]:
            add(a)
        return out
    if "move_robber" in by or "move_pirate" in by:
        moves = by.get("move_robber", []) + by.get("move_pirate", [])
        for a in sorted(moves, key=lambda a: -robber.robber_score(o, a))[:k]:
            add(a)
        return out
    if "accept_trade" in by:
        add(by["accept_trade"][0])
        add(by.get("reject_trade", [None])[0])
        return out
    if "roll" in by:
        add(by["roll"][0])
        add(by.get("play_knight", [None])[0])
        return out
    if "end_turn" not in by or o.trade is not None:
        return out  # an open offer of mine is closed by the medium policy: each answer gets a reply
    for kind in ("build_settlement", "build_city"):
        if kind in by:
            key = hx.vertex_score if kind == "build_settlement" else hx.city_value
            add(max(by[kind], key=lambda a, key=key: key(o, a["vertex"])))
    edges = by.get("build_road", []) + by.get("build_ship", [])
    if edges:
        add(hx.best_edge(o, edges)[0])
    add(by.get("buy_development", [None])[0])
    add(by.get("play_knight", [None])[0])
    if "play_monopoly" in by:
        held = o.opponent_cards()
        add(max(by["play_monopoly"], key=lambda a: held[hx.RESOURCES.index(a["resource"])]))
    if "play_year_of_plenty" in by:
        _, cost = hx.goal(o)
        add(min(by["play_year_of_plenty"], key=lambda a: _short_after(o, a, cost)))
    add(by["end_turn"][0])
    if "trade_bank" in by:
        # Planning for a city (then a settlement on a ready spot): the bank trade that brings it closest, one
        # candidate beyond k, so the search weighs trading toward it now against building, buying or saving.
        for cost in _plans(o):
            trade = _trade_toward(o, by["trade_bank"], cost)
            if trade is not None and trade not in out:
                out.append(trade)
                break
    return out


def _plans(o: Obs) -> list[tuple[int, ...]]:
    """What my spare cards could be traded toward: a city while I have a settlement to upgrade, a settlement
    while a spot is ready on my network."""
    me, supply = o.me, o.supply[o.me]
    plans = []
    if supply["cities"] and any(not o.vertex_city[v] for v in o.seat_buildings[me]):
        plans.append(CITY_COST)
    if supply["settlements"] and hx.my_settlement_spots(o):
        plans.append(SETTLEMENT_COST)
    return plans


def _trade_toward(o: Obs, trades: list[Action], cost: tuple[int, ...]) -> Action | None:
    """The bank trade that leaves the hand fewest cards short of `cost`, giving only cards it does not need
    (None when no trade brings it closer)."""
    hand = o.hand
    now = hx.shortage(hand, cost)
    if now == 0:
        return None
    best, best_key = None, None
    for a in trades:
        give, get = RESOURCE_INDEX[a["give"]], RESOURCE_INDEX[a["get"]]
        rate = o.rates[give]
        if hand[give] - rate < cost[give] or hand[get] >= cost[get]:
            continue
        after = list(hand)
        after[give] -= rate
        after[get] += 1
        key = (hx.shortage(after, cost), rate)
        if key[0] < now and (best_key is None or key < best_key):
            best, best_key = a, key
    return best


def _short_after(o: Obs, action: Action, cost: tuple[int, ...]) -> int:
    after = list(o.hand)
    for name in action["resources"]:
        after[hx.RESOURCES.index(name)] += 1
    return hx.shortage(after, cost)


def rollout(
    state: State, me: int, turns: int, rng: random.Random, max_actions: int = 600, deadline: float = math.inf
) -> None:
    """Play every seat with the medium policy until `turns` more turns have ended (or the game has)."""
    ended = 0
    for count in range(max_actions):
        if not count % 8 and time.perf_counter() > deadline:
            return
        seats = to_move(state)
        if not seats:
            return
        seat = seats[0]
        legal = cached_legal_actions(state, seat)
        if len(legal) == 1 and legal[0]["type"] not in ("end_turn", "discard", "choose_gold"):
            action = legal[0]
        else:
            obs = Obs.from_state(state, seat)
            if seat == me:
                obs.card_goal, obs.road_goal = CARD_GOAL, ROAD_GOAL
            action = decide(obs, legal, rng)
        if action["type"] == "end_turn":
            ended += 1
            if ended > turns:
                return
        try:
            apply(state, seat, action)
        except IllegalAction:  # a sampled state the policy misreads: score the position as it stands
            return


def strength(state: State, seat: int) -> float:
    """Victory points plus what should turn into points: production, cards in hand, development cards."""
    if state.phase == GAME_OVER:
        return 100.0 if state.winner == seat else victory_points(state, seat)
    income = seat_income(state, seat)
    # Every resource is needed: weight the scarcest ones up (diminishing returns on one resource).
    production = sum(math.sqrt(x) for x in income[:5]) * 2.2 + income[5] * 0.3
    hand = sum(state.hands[seat])
    cards = 0.12 * min(hand, 7) - 0.08 * max(0, hand - 7)
    development = 0.35 * (sum(state.development[seat]) + sum(state.development_new[seat]))
    development -= 0.35 * (state.development[seat][4] + state.development_new[seat][4])
    return victory_points(state, seat) + 0.05 * production + cards + development


def evaluate(state: State, me: int) -> float:
    """My chance to win from the position reached (the learned value of `value.py`)."""
    if EVAL == "strength":
        mine = strength(state, me)
        return mine - max(strength(state, s) for s in range(state.players) if s != me)
    return win_chances(state)[me]


EVAL = "value"
