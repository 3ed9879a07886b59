"""Valuations shared by the bots, all computed on an `Obs`: production, the worth of a building spot, of an
edge toward spots (roads and ships alike, with Seafarers' islands and fog), and the current building goal.
What a trade, a discard or a gold choice does to that goal is in `cards.py`; the robber's targets in `robber.py`."""

from __future__ import annotations

from collections import deque
from typing import Any

from ..constants import (
    CITY_COST,
    DESERT,
    DEVELOPMENT_COST,
    FOG,
    GENERIC_HARBOUR,
    GOLD,
    PIPS,
    RESOURCES,
    ROAD_COST,
    SEA,
    SETTLEMENT_COST,
    SHIP_COST,
)
from .obs import Obs

Action = dict[str, Any]
Cost = tuple[int, ...]

# Early on, wood and brick build the network; ore and grain make cities. Wool matters least.
RESOURCE_WEIGHT = (1.0, 1.0, 0.8, 1.0, 1.0)
VP_IN_PIPS = 6.0  # what one victory point is worth on the pips scale of spot values
DECAY = 0.55  # each further piece needed to reach a spot
ROBBED = 0.35  # production kept on the robber's hex (it moves on, eventually)


def group(legal: list[Action]) -> dict[str, list[Action]]:
    by: dict[str, list[Action]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    return by


def shortage(hand: list[int], cost: Cost) -> int:
    return sum(c - h for h, c in zip(hand, cost, strict=False) if c > h)


def named(counts: list[int]) -> dict[str, int]:
    return {RESOURCES[r]: n for r, n in enumerate(counts) if n}


# --- production and spots -----------------------------------------------------------------------------


def production(o: Obs, seat: int) -> list[float]:
    """Expected pips per resource (index 5: gold) from a seat's buildings; the robber's hex counts little."""
    key = ("prod", seat)
    cached = o.cache.get(key)
    if cached is not None:
        return cached
    prod = [0.0] * 6
    topo = o.derived.topo
    terrain, tokens, city = o.terrain, o.tokens, o.vertex_city
    for v in o.seat_buildings[seat]:
        mult = 2 if city[v] else 1
        for h in topo.vertex_hexes[v]:
            token = tokens[h]
            if not token:
                continue
            t = terrain[h]
            p = PIPS[token] * mult * (ROBBED if h == o.robber else 1.0)
            if t < 5:
                prod[t] += p
            elif t == GOLD:
                prod[5] += p
    o.cache[key] = prod
    return prod


def my_islands(o: Obs) -> frozenset[int]:
    cached = o.cache.get("islands")
    if cached is None:
        islands = o.derived.vertex_islands
        cached = frozenset(i for v in o.seat_buildings[o.me] for i in islands[v])
        o.cache["islands"] = cached
    return cached


def vertex_score(o: Obs, v: int, setup: bool = False) -> float:
    """What settling `v` is worth to me, on a pips scale: production weighted by what I lack, new
    resources, harbours, and in Seafarers the island bonus, trade-line islands and open sea for ships."""
    key = ("vs", v, setup)
    cached = o.cache.get(key)
    if cached is not None:
        return cached
    prod = production(o, o.me)
    topo = o.derived.topo
    terrain, tokens = o.terrain, o.tokens
    score = 0.0
    new_kinds = 0
    sea = False
    fog = 0
    here = [0.0] * 5
    for h in topo.vertex_hexes[v]:
        t = terrain[h]
        if t == SEA:
            sea = sea or not o.frame[h]
            continue
        if t == FOG:
            fog += 1
            continue
        token = tokens[h]
        if t == DESERT:
            continue
        if not token:
            # Greater Catan: land reached later draws a token from the bag (about three pips on average).
            if not (o.seafarers and "token_bag" in o.derived.rules):
                continue
            p = 3.0
        else:
            p = PIPS[token] * (0.7 if h == o.robber else 1.0)
        if t == GOLD:
            score += 1.3 * p
            if prod[5] == 0:
                new_kinds += 1
            continue
        here[t] += p
        scarce = 1.3 if prod[t] < 1 else (1.0 if prod[t] < 7 else 0.85)
        score += p * RESOURCE_WEIGHT[t] * scarce
        if prod[t] == 0:
            new_kinds += 1
    score += 0.8 * new_kinds
    kind = o.derived.vertex_harbour[v]
    if kind == GENERIC_HARBOUR:
        if min(o.rates) > 3:
            score += 1.2 + 0.04 * sum(prod)
    elif kind >= 0 and o.rates[kind] > 2:
        score += min(3.5, 0.3 * (prod[kind] + here[kind]))
    if o.seafarers:
        rules = o.derived.rules
        islands = o.derived.vertex_islands[v]
        foreign = bool(islands) and not (islands & my_islands(o))
        if not setup and foreign:
            bonus = rules.get("island_bonus")
            if bonus:
                earned = sum(1 for site in o.token_sites if site[1] == o.me)
                score += VP_IN_PIPS * bonus[min(earned, len(bonus) - 1)]
            if rules.get("trade_lines"):
                score += 0.5 * VP_IN_PIPS
        if sea:
            score += 1.2 if setup else 0.3
        if fog and rules.get("reveal") and o.hidden_left:
            score += 1.5 * fog
    o.cache[key] = score
    return score


def free_spots(o: Obs) -> set[int]:
    """Every land vertex that obeys the distance rule (anyone's future settlement site)."""
    cached = o.cache.get("spots")
    if cached is None:
        land = o.derived.land_vertex
        owner = o.vertex_owner
        neighbors = o.derived.topo.vertex_neighbors
        taken = set()
        for v, seat in enumerate(owner):
            if seat >= 0:
                taken.add(v)
                taken.update(neighbors[v])
        cached = {v for v in range(len(land)) if land[v] and v not in taken}
        o.cache["spots"] = cached
    return cached


def my_settlement_spots(o: Obs) -> list[int]:
    """Spots on my network now (what build_settlement would list once affordable)."""
    cached = o.cache.get("myspots")
    if cached is None:
        ev = o.derived.topo.edge_vertices
        spots = free_spots(o)
        found = {v for e in o.seat_edges[o.me] for v in ev[e] if v in spots}
        cached = sorted(found)
        o.cache["myspots"] = cached
    return cached


def city_value(o: Obs, v: int) -> float:
    topo = o.derived.topo
    score = 0.0
    for h in topo.vertex_hexes[v]:
        token = o.tokens[h]
        t = o.terrain[h]
        if token and (t < 5 or t == GOLD):
            w = 1.3 if t == GOLD else RESOURCE_WEIGHT[t] + (0.15 if t >= 3 else 0.0)
            score += PIPS[token] * w * (0.6 if h == o.robber else 1.0)
    return score


# --- edges toward spots -------------------------------------------------------------------------------


def _pirate_edges(o: Obs) -> tuple[int, ...]:
    return o.derived.topo.hex_edges[o.pirate] if o.pirate >= 0 else ()


def reach_value(o: Obs, start: int, skip_edge: int, depth: int = 3) -> float:
    """The best spot reachable from `start` through free edges (opponents' buildings block), discounted by
    the pieces still needed; unexplored fog next to the way counts as a modest spot."""
    topo = o.derived.topo
    road_edge, ship_edge = o.derived.road_edge, o.derived.ship_edge
    edge_owner, vertex_owner = o.edge_owner, o.vertex_owner
    pirate = _pirate_edges(o)
    reveal = o.seafarers and o.hidden_left and o.derived.rules.get("reveal")
    spots = free_spots(o)
    best = 0.0
    seen = {start}
    frontier = [start]
    factor = 1.0
    for d in range(depth + 1):
        nxt = []
        for u in frontier:
            if u in spots:
                value = vertex_score(o, u) * factor
                if value > best:
                    best = value
            if reveal:
                fogs = sum(1 for h in topo.vertex_hexes[u] if o.terrain[h] == FOG)
                if fogs and 2.5 * fogs * factor > best:
                    best = 2.5 * fogs * factor
            if d == depth or (u != start and vertex_owner[u] not in (-1, o.me)):
                continue
            for e in topo.vertex_edges[u]:
                if e == skip_edge or edge_owner[e] != -1:
                    continue
                if not road_edge[e] and not (ship_edge[e] and e not in pirate):
                    continue
                a, b = topo.edge_vertices[e]
                n = b if a == u else a
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
        factor *= DECAY
    return best


def network_vertices(o: Obs) -> set[int]:
    cached = o.cache.get("net")
    if cached is None:
        ev = o.derived.topo.edge_vertices
        cached = set(o.seat_buildings[o.me])
        for e in o.seat_edges[o.me]:
            cached.update(ev[e])
        o.cache["net"] = cached
    return cached


def edge_value(o: Obs, e: int) -> float:
    """What one more road or ship on `e` is worth: the spots it brings closer, fog it explores."""
    key = ("ev", e)
    cached = o.cache.get(key)
    if cached is not None:
        return cached
    topo = o.derived.topo
    net = network_vertices(o)
    a, b = topo.edge_vertices[e]
    far = [v for v in (a, b) if v not in net] or [a, b]
    value = max(reach_value(o, v, e) for v in far)
    if o.seafarers and o.hidden_left and o.derived.rules.get("reveal"):
        fogs = {h for v in (a, b) for h in topo.vertex_hexes[v] if o.terrain[h] == FOG}
        value += 2.0 * len(fogs)
    value += line_value(o, e)
    o.cache[key] = value
    return value


LINE_DECAY = 0.85  # a trade line is one plan: each further piece discounts it less than a loose spot


def crossing(o: Obs) -> tuple[int, int] | None:
    """Great Crossing: the cheapest new trade line from my network to a building on another island, as (the
    next free edge to build on the way, pieces still needed). Pieces already on the board (anyone's) are free
    to pass through, buildings are not (a line ends at the first one)."""
    if "crossing" in o.cache:
        return o.cache["crossing"]
    topo = o.derived.topo
    road_edge, ship_edge = o.derived.road_edge, o.derived.ship_edge
    islands = o.derived.vertex_islands
    home = my_islands(o)
    owner, edge_owner = o.vertex_owner, o.edge_owner
    pirate = _pirate_edges(o)
    supply = o.supply[o.me]
    can_road, can_ship = supply["roads"] > 0, supply["ships"] > 0
    dist: dict[int, int] = {}
    first: dict[int, int] = {}  # the first piece to build on the best way to each vertex
    frontier = deque()
    for v in network_vertices(o):
        dist[v] = 0
        first[v] = -1
        frontier.append(v)
    result = None
    while frontier:
        u = frontier.popleft()
        d = dist[u]
        if d and owner[u] >= 0:
            if islands[u] and not (islands[u] & home) and first[u] >= 0:
                result = (first[u], d)
                break
            continue
        if d > 8:
            break
        for e in topo.vertex_edges[u]:
            if edge_owner[e] >= 0:
                step = 0
            elif (road_edge[e] and can_road) or (ship_edge[e] and can_ship and e not in pirate):
                step = 1
            else:
                continue
            x, y = topo.edge_vertices[e]
            n = y if x == u else x
            nd = d + step
            if n in dist and dist[n] <= nd:
                continue
            dist[n] = nd
            first[n] = first[u] if first[u] >= 0 or step == 0 else e
            if step:
                frontier.append(n)
            else:
                frontier.appendleft(n)
    o.cache["crossing"] = result
    return result


def line_value(o: Obs, e: int) -> float:
    """What building `e` is worth toward a new trade line (0 unless it is the next piece of the best one)."""
    if not (o.seafarers and o.derived.rules.get("trade_lines")):
        return 0.0
    plan = crossing(o)
    if plan is None or plan[0] != e:
        return 0.0
    return VP_IN_PIPS * LINE_DECAY ** (plan[1] - 1)


def best_edge(o: Obs, actions: list[Action]) -> tuple[Action | None, float]:
    best, best_value = None, -1.0
    for a in actions:
        value = edge_value(o, a["edge"])
        if a["type"] == "build_ship":
            value *= 0.97  # a road is sturdier (the pirate, and it needs no wool)
        if value > best_value:
            best, best_value = a, value
    return best, best_value


# --- goals --------------------------------------------------------------------------------------------


def goal(o: Obs) -> tuple[str, Cost]:
    """The next thing to save for: a city, a settlement (with a spot ready), a road or ship toward one, or a
    development card; chosen by value over the cards still missing."""
    cached = o.cache.get("goal")
    if cached is not None:
        return cached
    hand = o.hand
    me = o.me
    supply = o.supply[me]
    prod = production(o, me)
    options: list[tuple[float, str, Cost]] = []

    def missing(cost: Cost) -> float:
        total = 0.0
        for r in range(5):
            lack = cost[r] - hand[r]
            if lack > 0:
                total += lack * (1.0 if prod[r] + prod[5] > 0 else 1.8)
        return total

    if supply["cities"] and any(not o.vertex_city[v] for v in o.seat_buildings[me]):
        ore_grain = prod[3] + prod[4]
        options.append((3.0 + 0.05 * ore_grain, "city", CITY_COST))
    if supply["settlements"]:
        spots = my_settlement_spots(o)
        if spots:
            top = max(vertex_score(o, v) for v in spots)
            options.append((3.2 + 0.06 * top, "settlement", SETTLEMENT_COST))
        else:
            edge, value = _best_extension(o)
            if edge is not None and value >= 1.5:
                cost = SHIP_COST if edge[1] else ROAD_COST
                options.append((o.road_goal + 0.08 * value, "ship" if edge[1] else "road", cost))
    if o.seafarers and o.derived.rules.get("trade_lines"):
        plan = crossing(o)
        if plan is not None:
            road = o.derived.road_edge[plan[0]]
            options.append(
                (1.3 + 0.15 * line_value(o, plan[0]), "road" if road else "ship", ROAD_COST if road else SHIP_COST)
            )
    if o.deck_count:
        options.append((o.card_goal, "development", DEVELOPMENT_COST))
    if not options:
        result = ("none", (0, 0, 0, 0, 0))
    else:
        _, name, cost = max(options, key=lambda x: x[0] / (1.0 + missing(x[2])))
        result = (name, cost)
    o.cache["goal"] = result
    return result


def _best_extension(o: Obs) -> tuple[tuple[int, bool] | None, float]:
    """The best edge one could extend onto now (road or ship), ignoring cost."""
    cached = o.cache.get("ext")
    if cached is not None:
        return cached
    topo = o.derived.topo
    road_edge, ship_edge = o.derived.road_edge, o.derived.ship_edge
    pirate = _pirate_edges(o)
    me = o.me
    best: tuple[int, bool] | None = None
    best_value = 0.0
    ends_road = _ends(o, ship=False)
    ends_ship = _ends(o, ship=True) if o.seafarers else set()
    supply = o.supply[me]
    for ship, ends in ((False, ends_road), (True, ends_ship)):
        if not supply["ships" if ship else "roads"]:
            continue
        for v in ends:
            for e in topo.vertex_edges[v]:
                if o.edge_owner[e] != -1:
                    continue
                if ship and not (ship_edge[e] and e not in pirate):
                    continue
                if not ship and not road_edge[e]:
                    continue
                value = edge_value(o, e)
                if value > best_value:
                    best, best_value = (e, ship), value
    o.cache["ext"] = (best, best_value)
    return best, best_value


def _ends(o: Obs, ship: bool) -> set[int]:
    ev = o.derived.topo.edge_vertices
    ends = set(o.seat_buildings[o.me])
    for e in o.seat_edges[o.me]:
        if o.edge_ship[e] == ship:
            for v in ev[e]:
                if o.vertex_owner[v] == -1:
                    ends.add(v)
    return ends


def near_winning(o: Obs, seat: int) -> bool:
    return o.vp[seat] >= o.vp_target - 2
