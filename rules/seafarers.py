"""Seafarers rules that hang off the core: moving ships, the pirate, exploring fog, the token bag,
island bonuses and The Great Crossing's trade lines (RULES.md §9–§10)."""

from __future__ import annotations

from collections import deque
from typing import Any

from . import chance, placement
from .constants import DESERT, FOG, GOLD, LAND, RESOURCES, SEA, TERRAINS
from .state import GOLD as GOLD_PHASE
from .state import PLACE_TOKEN, State

Event = dict[str, Any]


# --- ships --------------------------------------------------------------------------------------------


def movable_ships(state: State, seat: int) -> list[int]:
    """Ships at the open end of an open line: one end has neither the seat's building nor another of its
    ships. Never a ship built this turn, never one on an edge of the pirate's hex."""
    topo = state.derived.topo
    owner, ship = state.edge_owner, state.edge_ship
    pirate_edges = topo.hex_edges[state.pirate] if state.pirate >= 0 else ()
    out = []
    for e in state.seat_edges[seat]:
        if not ship[e] or e in state.ships_new or e in pirate_edges:
            continue
        for v in topo.edge_vertices[e]:
            if state.vertex_owner[v] == seat:
                continue
            if not any(o != e and owner[o] == seat and ship[o] for o in topo.vertex_edges[v]):
                out.append(e)
                break
    return sorted(out)


def ship_destinations(state: State, seat: int, edge: int) -> list[int]:
    """Where a ship may go once lifted from `edge` (any legal ship position but its own)."""
    state.edge_owner[edge] = -1
    state.seat_edges[seat].remove(edge)
    try:
        return placement.ship_edges(state, seat, ignore_edge=edge)
    finally:
        state.edge_owner[edge] = seat
        state.seat_edges[seat].append(edge)


def lift_ship(state: State, seat: int, edge: int) -> None:
    placement.forget_spots(state, keep=placement.BUILDING_ENTRIES)
    state.edge_owner[edge] = -1
    state.edge_ship[edge] = False
    state.seat_edges[seat].remove(edge)
    state.supply[seat]["ships"] += 1


def setup_ship_edges(state: State, vertex: int) -> list[int]:
    ship_edge = state.derived.ship_edge
    pirate_edges = state.derived.topo.hex_edges[state.pirate] if state.pirate >= 0 else ()
    return [
        e
        for e in state.derived.topo.vertex_edges[vertex]
        if state.edge_owner[e] == -1 and ship_edge[e] and e not in pirate_edges
    ]


def ship_required_at_setup(state: State, vertex: int) -> bool:
    """Four Islands: a coastal set-up settlement takes a ship, unless its only sea is the board's edge."""
    if not state.derived.rules.get("setup_ship_required"):
        return False
    sea = [h for h in state.derived.topo.vertex_hexes[vertex] if state.terrain[h] == SEA]
    return any(not state.frame[h] for h in sea)


# --- the pirate ---------------------------------------------------------------------------------------


def pirate_hexes(state: State) -> list[int]:
    return [h for h in state.derived.sea_hexes if h != state.pirate and not state.frame[h]]


def pirate_victims(state: State, seat: int, hex_id: int) -> list[int]:
    owner, ship = state.edge_owner, state.edge_ship
    victims = {
        owner[e]
        for e in state.derived.topo.hex_edges[hex_id]
        if owner[e] >= 0 and ship[e] and owner[e] != seat and any(state.hands[owner[e]])
    }
    return sorted(victims)


# --- gold ---------------------------------------------------------------------------------------------


def owe_gold(state: State, owed: dict[int, int], events: list[Event]) -> None:
    """Players owed gold-field cards choose them before play goes on."""
    owed = {s: n for s, n in owed.items() if n}
    if not owed or not any(state.bank):
        return
    for s, n in owed.items():
        state.gold_owed[s] += n
    if state.phase != GOLD_PHASE:
        state.resume_phase = state.phase
        state.phase = GOLD_PHASE
    events.append({"type": "gold_owed", "counts": {str(s): n for s, n in owed.items()}})


# --- reaching new hexes: fog (Oceania) and the token bag (Greater Catan) -------------------------------


def reach(state: State, seat: int, edge: int, events: list[Event]) -> None:
    """A piece just placed on `edge`: reveal fog next to its ends, and give untokened land a token."""
    topo = state.derived.topo
    rules = state.derived.rules
    hexes = {h for v in topo.edge_vertices[edge] for h in topo.vertex_hexes[v]}
    if rules.get("reveal"):
        revealed = False
        for h in sorted(hexes):
            if state.terrain[h] == FOG and state.hidden_terrain:
                _reveal(state, seat, h, events)
                revealed = True
        if revealed:
            state.refresh_derived()
    if rules.get("token_bag") is not None:
        main = state.derived.setup_hexes or frozenset()
        for h in sorted(hexes):
            terrain = state.terrain[h]
            if terrain in LAND and terrain != DESERT and not state.tokens[h] and h not in main:
                if h in state.pending_tokens:
                    continue
                if state.token_bag:
                    state.stream, pick = chance.below(state.stream, len(state.token_bag))
                    state.tokens[h] = state.token_bag.pop(pick)
                    events.append({"type": "token_drawn", "seat": seat, "hex": h, "token": state.tokens[h]})
                else:
                    state.pending_tokens.append(h)
        state.refresh_derived()
        if state.pending_tokens and state.phase != PLACE_TOKEN:
            state.resume_phase = state.phase
            state.phase = PLACE_TOKEN


def _reveal(state: State, seat: int, h: int, events: list[Event]) -> None:
    terrain = state.hidden_terrain.pop()
    state.terrain[h] = terrain
    event: Event = {"type": "revealed", "seat": seat, "hex": h, "terrain": TERRAINS[terrain]}
    if terrain in LAND and terrain != DESERT and state.hidden_tokens:
        state.tokens[h] = state.hidden_tokens.pop()
        event["token"] = state.tokens[h]
        if terrain == GOLD:
            events.append(event)
            owe_gold(state, {seat: 1}, events)
            return
        if state.bank[terrain]:
            state.bank[terrain] -= 1
            state.hands[seat][terrain] += 1
            event["resource"] = RESOURCES[terrain]
    events.append(event)


def token_sources(state: State, seat: int) -> list[int]:
    """Main-island hexes whose token may move to the first pending hex, constraints relaxed in order."""
    destination = state.pending_tokens[0]
    topo = state.derived.topo
    main = state.derived.setup_hexes or frozenset()
    candidates = [h for h in sorted(main) if state.tokens[h]]

    def has_building(h: int) -> bool:
        return any(state.vertex_owner[v] == seat for v in topo.hex_vertices[h])

    def main_buildings_keep_a_token(h: int) -> bool:
        for v, owner in enumerate(state.vertex_owner):
            if owner < 0 or not any(x in main for x in topo.vertex_hexes[v]):
                continue
            if not any(state.tokens[x] and x != h for x in topo.vertex_hexes[v]):
                return False
        return True

    def small_islands_apart(h: int) -> bool:
        return not any(state.tokens[n] and n not in main for n in topo.hex_neighbors[destination])

    checks = [has_building, main_buildings_keep_a_token, small_islands_apart]
    for start in range(4):
        allowed = [h for h in candidates if all(check(h) for check in checks[start:])]
        if allowed:
            return allowed
    return candidates


# --- island bonuses ------------------------------------------------------------------------------------


def settle_island(state: State, seat: int, vertex: int, setup: bool, events: list[Event]) -> None:
    """Record the islands a settlement stands on; a first settlement on a foreign island earns tokens."""
    for island in sorted(state.derived.vertex_islands[vertex]):
        if island in state.islands_settled[seat]:
            continue
        state.islands_settled[seat].append(island)
        if setup:
            state.home_islands[seat].append(island)
            continue
        bonus = state.derived.rules.get("island_bonus")
        if not bonus:
            continue
        earned = sum(1 for site in state.token_sites if site[1] == seat and site[3] == 0)
        points = bonus[min(earned, len(bonus) - 1)]
        state.vp_tokens[seat] += points
        state.token_sites.append([vertex, seat, points, 0])
        events.append({"type": "island_bonus", "seat": seat, "vertex": vertex, "points": points})


# --- The Great Crossing: trade lines -------------------------------------------------------------------


def update_trade_lines(state: State, events: list[Event]) -> None:
    """Recompute the links between buildings on different islands; a kept line keeps its owner."""
    if not state.derived.rules.get("trade_lines"):
        return
    topo = state.derived.topo
    vertex_owner, edge_owner = state.vertex_owner, state.edge_owner
    islands = state.derived.vertex_islands
    existing = {(a, b): owner for a, b, owner in state.trade_lines}
    found: dict[tuple[int, int], int] = {}
    buildings = [v for v, o in enumerate(vertex_owner) if o >= 0]
    for start in buildings:
        parent: dict[int, tuple[int, int]] = {start: (-1, -1)}
        queue = deque([start])
        while queue:
            v = queue.popleft()
            if v != start and vertex_owner[v] >= 0:
                continue  # a line may not pass through another building
            for e in topo.vertex_edges[v]:
                if edge_owner[e] < 0:
                    continue
                a, b = topo.edge_vertices[e]
                n = b if a == v else a
                if n not in parent:
                    parent[n] = (v, e)
                    queue.append(n)
        for end in buildings:
            if end <= start or end not in parent or not (islands[start] and islands[end]):
                continue
            if islands[start] & islands[end]:
                continue
            path = []
            v = end
            while v != start:
                v, e = parent[v]
                path.append(e)
            key = (start, end)
            found[key] = existing.get(key, _line_owner(state, path))
    lines = [[a, b, owner] for (a, b), owner in sorted(found.items())]
    for a, b, owner in lines:
        if (a, b) not in existing:
            events.append({"type": "trade_line", "seat": owner, "vertices": [a, b]})
    for (a, b), owner in existing.items():
        if (a, b) not in found:
            events.append({"type": "trade_line_lost", "seat": owner, "vertices": [a, b]})
    state.trade_lines = lines


def _line_owner(state: State, path: list[int]) -> int:
    """The player with most pieces in the line; on a tie, whoever placed the joining (latest) piece."""
    counts: dict[int, int] = {}
    for e in path:
        counts[state.edge_owner[e]] = counts.get(state.edge_owner[e], 0) + 1
    best = max(counts.values())
    leaders = [s for s, n in counts.items() if n == best]
    if len(leaders) == 1:
        return leaders[0]
    latest = max((e for e in path if state.edge_owner[e] in leaders), key=lambda e: state.edge_serial[e])
    return state.edge_owner[latest]


def trade_line_points(state: State, seat: int) -> int:
    return sum(1 for line in state.trade_lines if line[2] == seat)
