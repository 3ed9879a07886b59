"""The medium bot: heuristic placement, a build goal, robber on the leader, bank and harbour trades toward the
goal, sensible answers to offers and a measured rate of offers of its own, and the Seafarers moves (ships
toward coast, islands and fog, moving an idle ship, gold by need, the token and the pirate).

`decide(obs, legal, ...)` is the policy itself; the hard bot's rollouts call it on sampled states too.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from ..constants import KNIGHT, LARGEST_ARMY_MINIMUM, MONOPOLY, PIPS, RESOURCE_INDEX, RESOURCES
from . import heuristics as hx
from . import robber
from .cards import discard_bundle, gold_bundle, trade_helps
from .obs import Obs
from .tracker import CardTracker

Action = dict[str, Any]
ROAD_WORTH = 2.0  # a road or ship is built when it brings a spot at least this close (pips scale)


OFFER_RATE = 0.3  # chance that a sensible offer is actually made at a given decision


class MediumBot:
    """Heuristic player. Reads the view only; its own offers are rationed by `offer_allowed`. Its only memory
    is an optional `tracker` (tracker.py) of what the game's events showed of others' cards, which tells whom
    an offer may be put to: given the same events, a fresh bot per move plays exactly like a long-lived one."""

    name = "medium"

    def __init__(self, seed: int = 0, tracker: CardTracker | None = None) -> None:
        self.rng = random.Random(seed)
        self.tracker = tracker

    def observe(self, events: list[dict[str, Any]]) -> None:
        if self.tracker is not None:
            self.tracker.observe(events)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1 and legal[0]["type"] not in ("end_turn", "discard", "choose_gold"):
            return legal[0]
        o = observe_view(view, self.tracker)
        return decide(o, legal, self.rng, offer_ok=offer_allowed(o))


def observe_view(view: dict[str, Any], tracker: CardTracker | None) -> Obs:
    """The seat's knowledge: its view, and what its tracker (checked against the view's counts) adds."""
    o = Obs.from_view(view)
    if tracker is not None:
        tracker.sync(o.counts, o.bank, o.hand)
        o.tracker = tracker
    return o


def offer_allowed(o: Obs) -> bool:
    """Whether this decision may open a domestic offer: a draw of `OFFER_RATE` keyed on the public (turn, seat,
    version), so it needs no memory. After a refused offer the version has moved on and the draw is new: the
    number of offers in one turn is geometric (mean 0.43, two or more with chance 0.09), never a loop."""
    key = f"{o.turn}:{o.me}:{o.version}".encode()
    return zlib.crc32(key) % 1000 < OFFER_RATE * 1000


def decide(o: Obs, legal: list[Action], rng: random.Random, offer_ok: bool = False) -> Action:
    """The medium policy: an action for `o.me` among `legal` (or a free-form discard, gold or offer)."""
    by = hx.group(legal)
    if "discard" in by:
        return {"type": "discard", "cards": discard_bundle(o, o.discards_owed)}
    if "choose_gold" in by:
        cards = gold_bundle(o, o.gold_owed)
        return {"type": "choose_gold", "cards": cards} if cards else by["choose_gold"][0]
    if o.phase in ("setup_settlement", "setup_road"):
        return _setup(o, by, legal)
    if "accept_trade" in by or "reject_trade" in by:
        return _answer_offer(o, by)
    if "confirm_trade" in by or "cancel_trade" in by:
        return _close_offer(o, by)
    if "move_robber" in by or "move_pirate" in by:
        options = by.get("move_robber", []) + by.get("move_pirate", [])
        return max(options, key=lambda a: robber.robber_score(o, a))
    if "move_token" in by:
        return max(by["move_token"], key=lambda a: _token_score(o, a["hex"]))
    if o.phase == "road_building":
        edge, _ = hx.best_edge(o, by.get("build_road", []) + by.get("build_ship", []))
        return edge or legal[0]
    if "roll" in by:
        knight = _knight(o, by, before_roll=True)
        return knight or by["roll"][0]
    if "end_turn" in by:
        return _main(o, by, rng, offer_ok)
    return legal[0]


# --- set-up -------------------------------------------------------------------------------------------


def _setup(o: Obs, by: dict[str, list[Action]], legal: list[Action]) -> Action:
    if "build_settlement" in by:
        second = len(o.seat_buildings[o.me]) >= 1
        return max(by["build_settlement"], key=lambda a: _setup_spot(o, a["vertex"], second))
    edges = by.get("build_road", []) + by.get("build_ship", [])
    edge, _ = hx.best_edge(o, edges)
    return edge or legal[0]


def _setup_spot(o: Obs, v: int, second: bool) -> float:
    score = hx.vertex_score(o, v, setup=True)
    if second:
        # The second settlement pays its neighbours at once: a little extra for starting cards.
        score += 0.2 * sum(1 for h in o.derived.topo.vertex_hexes[v] if o.tokens[h])
    return score


# --- trades -------------------------------------------------------------------------------------------


def _answer_offer(o: Obs, by: dict[str, list[Action]]) -> Action:
    trade = o.trade
    reject = by.get("reject_trade", [{"type": "reject_trade"}])[0]
    if "accept_trade" not in by or trade is None:
        return reject
    offerer = trade["from"]
    if hx.near_winning(o, offerer) or o.vp[offerer] >= o.vp[o.me] + 3:
        return reject
    # The offer is in the offerer's terms: they give `give` (I receive it) and get `get` (I hand it over).
    if trade_helps(o, give=trade["get"], get=trade["give"]):
        return by["accept_trade"][0]
    return reject


def _close_offer(o: Obs, by: dict[str, list[Action]]) -> Action:
    """Take the best answer that helps me; turn down each counter-offer that does not (a counter gets an
    answer, never a silent withdrawal); then withdraw an offer nobody took."""
    trade = o.trade
    best, best_score = None, 0.0
    for a in by.get("confirm_trade", []):
        partner = a["seat"]
        reply = trade["replies"].get(partner) if trade else None
        terms = reply if isinstance(reply, dict) else trade
        if terms is None or not trade_helps(o, give=terms["give"], get=terms["get"]):
            continue
        score = sum(terms["get"]) - sum(terms["give"]) - 0.1 * o.vp[partner]
        if best is None or score > best_score:
            best, best_score = a, score
    if best is not None:
        return best
    if "reject_counter" in by:
        return by["reject_counter"][0]
    return by.get("cancel_trade", by.get("end_turn"))[0]


def _offer(o: Obs, cost: tuple[int, ...]) -> Action | None:
    """One card short of the goal: offer one spare card for it, to everyone not about to win who may hold
    it; never terms already offered this turn (a refused offer is not made again: the others would only
    refuse it again). With a tracker, only to seats that may hold the card and have not refused to give it
    this turn."""
    hand = o.hand
    need = [max(0, cost[r] - hand[r]) for r in range(5)]
    if sum(need) != 1:
        return None
    want = need.index(1)
    to = [s for s in o.opponents() if o.counts[s] and not hx.near_winning(o, s)]
    tracker = o.tracker
    if tracker is not None:
        to = [s for s in to if tracker.may_hold(s, want) and not tracker.refuses(s, want)]
    if not to or o.opponent_cards()[want] == 0:
        return None
    get = [int(r == want) for r in range(5)]
    spare = sorted((r for r in range(5) if hand[r] > cost[r]), key=lambda r: (cost[r] - hand[r], hx.RESOURCE_WEIGHT[r]))
    for give in spare:
        terms = ([int(r == give) for r in range(5)], get)
        if terms not in o.offers_this_turn:
            return {"type": "offer_trade", "give": {RESOURCES[give]: 1}, "get": {RESOURCES[want]: 1}, "to": to}
    return None


def _bank_trade(o: Obs, actions: list[Action], cost: tuple[int, ...], force: bool) -> Action | None:
    """A maritime trade toward the goal, when the trades can finish it this turn (or the hand is too big)."""
    hand = o.hand
    rates = o.rates
    need = [max(0, cost[r] - hand[r]) for r in range(5)]
    if not any(need):
        return None
    spare = [(hand[r] - cost[r]) // rates[r] for r in range(5)]
    if not force and sum(max(0, s) for s in spare) < sum(need):
        return None
    best, best_key = None, None
    for a in actions:
        give, get = RESOURCE_INDEX[a["give"]], RESOURCE_INDEX[a["get"]]
        if not need[get] or spare[give] <= 0:
            continue
        key = (need[get], -rates[give], hand[give] - cost[give])
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


# --- the main phase -----------------------------------------------------------------------------------


def _main(o: Obs, by: dict[str, list[Action]], rng: random.Random, offer_ok: bool) -> Action:
    name, cost = hx.goal(o)
    hand = o.hand
    if "build_city" in by and (name == "city" or "build_settlement" not in by):
        return max(by["build_city"], key=lambda a: hx.city_value(o, a["vertex"]))
    if "build_settlement" in by:
        return max(by["build_settlement"], key=lambda a: hx.vertex_score(o, a["vertex"]))
    if "build_city" in by:
        return max(by["build_city"], key=lambda a: hx.city_value(o, a["vertex"]))
    card = _development_play(o, by, cost)
    if card is not None:
        return card
    edges = by.get("build_road", []) + by.get("build_ship", [])
    if edges:
        edge, value = hx.best_edge(o, edges)
        spots = hx.my_settlement_spots(o)
        wanted = name in ("road", "ship") or (not spots and value >= ROAD_WORTH)
        if edge is not None and value >= ROAD_WORTH and (wanted or _spare_after(o, edge, cost)):
            return edge
        race = _longest_road_move(o, edges, cost)
        if race is not None:
            return race
    if "buy_development" in by and (name in ("development", "none") or _spare_after_dev(o, cost)):
        return by["buy_development"][0]
    if "trade_bank" in by:
        trade = _bank_trade(o, by["trade_bank"], cost, force=sum(hand) > 7)
        if trade is not None:
            return trade
    if offer_ok and o.trade is None and o.current == o.me and o.phase == "main":
        offer = _offer(o, cost)
        if offer is not None:
            return offer
    if "move_ship" in by:
        move = _ship_move(o, by["move_ship"])
        if move is not None:
            return move
    return by["end_turn"][0]


def _spare_after(o: Obs, edge: Action, cost: tuple[int, ...]) -> bool:
    from ..constants import ROAD_COST, SHIP_COST

    price = SHIP_COST if edge["type"] == "build_ship" else ROAD_COST
    return all(o.hand[r] - price[r] >= cost[r] for r in range(5) if price[r])


def _spare_after_dev(o: Obs, cost: tuple[int, ...]) -> bool:
    from ..constants import DEVELOPMENT_COST

    return all(o.hand[r] - DEVELOPMENT_COST[r] >= cost[r] for r in range(5) if DEVELOPMENT_COST[r])


def _longest_road_move(o: Obs, edges: list[Action], cost: tuple[int, ...]) -> Action | None:
    """Late in the game, spare road cards go into Longest Road when it is within reach."""
    from ..longest_road import trail_length

    me = o.me
    if o.longest_road == me or hx.my_settlement_spots(o):
        return None
    holder_length = max(o.road_length[s] for s in o.opponents())
    target = max(5, holder_length + 1)
    if target - o.road_length[me] > 3:
        return None
    best, best_gain = None, 0
    for a in edges:
        if not _spare_after(o, a, cost) and o.supply[me]["settlements"] and hx.free_spots(o):
            continue
        e = a["edge"]
        o.edge_owner[e] = me
        o.seat_edges[me].append(e)
        try:
            gain = trail_length(o, me) - o.road_length[me]  # type: ignore[arg-type]
        finally:
            o.edge_owner[e] = -1
            o.seat_edges[me].pop()
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _knight(o: Obs, by: dict[str, list[Action]], before_roll: bool) -> Action | None:
    if "play_knight" not in by:
        return None
    mine = o.knights[o.me] + 1
    others = max(o.knights[s] for s in o.opponents())
    army = o.largest_army != o.me and mine >= LARGEST_ARMY_MINIMUM and mine > others
    if robber.robbed_me(o) or army:
        return by["play_knight"][0]
    if not before_roll and o.dev[KNIGHT] >= 2:
        return by["play_knight"][0]
    return None


def _development_play(o: Obs, by: dict[str, list[Action]], cost: tuple[int, ...]) -> Action | None:
    knight = _knight(o, by, before_roll=False)
    if knight is not None:
        return knight
    if "play_monopoly" in by and o.dev[MONOPOLY]:
        held = o.opponent_cards()
        rates = o.rates

        def worth(r: int) -> float:
            return held[r] * (1.5 if cost[r] > o.hand[r] else (1.0 if rates[r] <= 3 else 0.5))

        r = max(range(5), key=worth)
        if worth(r) >= 4.5:
            return next(a for a in by["play_monopoly"] if a["resource"] == RESOURCES[r])
    if "play_year_of_plenty" in by:
        hand = o.hand

        def short_after(a: Action) -> int:
            after = list(hand)
            for name in a["resources"]:
                after[RESOURCE_INDEX[name]] += 1
            return hx.shortage(after, cost)

        choice = min(by["play_year_of_plenty"], key=short_after)
        if short_after(choice) < hx.shortage(hand, cost):
            return choice
    if "play_road_building" in by and not hx.my_settlement_spots(o):
        _, value = hx._best_extension(o)
        if value >= ROAD_WORTH:
            return by["play_road_building"][0]
    return None


def _ship_move(o: Obs, moves: list[Action]) -> Action | None:
    """Move a ship from the open end of a line that leads nowhere to where it opens a spot."""
    if o.derived.rules.get("trade_lines") and any(line[2] == o.me for line in o.trade_lines):
        return None  # a moved ship may break a trade line that scores
    best, best_gain = None, 2.0
    here_cache: dict[int, float] = {}
    for a in moves:
        source = a["from"]
        if source not in here_cache:
            here_cache[source] = hx.edge_value(o, source)
        gain = hx.edge_value(o, a["to"]) - here_cache[source]
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _token_score(o: Obs, source: int) -> float:
    """Greater Catan: take a token from where it hurts me least (and others most) to where it helps me."""
    topo = o.derived.topo
    token = o.tokens[source]
    pips = PIPS.get(token, 0)
    score = 0.0
    for v in topo.hex_vertices[source]:
        owner = o.vertex_owner[v]
        if owner == o.me:
            score -= pips * (2 if o.vertex_city[v] else 1) * 1.5
        elif owner >= 0:
            score += 0.5 * pips
    if o.pending_tokens:
        destination = o.pending_tokens[0]
        if any(o.vertex_owner[v] == o.me for v in topo.hex_vertices[destination]):
            score += pips
    return score
