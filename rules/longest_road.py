"""Longest Road (and Seafarers' longest trade route): trail lengths and who holds the card (RULES.md §8)."""

from __future__ import annotations

from .constants import LONGEST_ROAD_MINIMUM
from .state import State


def trail_length(state: State, seat: int) -> int:
    """The longest trail through this seat's roads and ships, each edge once.

    An opponent's building cuts the trail at its vertex; road and ship join only at one's own building.
    """
    edge_owner = state.edge_owner
    edges = state.seat_edges[seat]
    if not edges:
        return 0
    topo = state.derived.topo
    edge_vertices = topo.edge_vertices
    vertex_edges = topo.vertex_edges
    vertex_owner = state.vertex_owner
    edge_ship = state.edge_ship
    used = set()
    best = 0

    def extend(vertex: int, ship: bool, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        owner = vertex_owner[vertex]
        if owner != -1 and owner != seat:
            return
        for e in vertex_edges[vertex]:
            if edge_owner[e] != seat or e in used:
                continue
            if edge_ship[e] != ship and owner != seat:
                continue
            used.add(e)
            a, b = edge_vertices[e]
            extend(b if a == vertex else a, edge_ship[e], length + 1)
            used.discard(e)

    # Every maximal trail starts at an end of some edge; starting from every edge in both directions is
    # cheap at fifteen pieces and needs no special case for loops.
    for e in edges:
        a, b = edge_vertices[e]
        used.add(e)
        extend(b, edge_ship[e], 1)
        extend(a, edge_ship[e], 1)
        used.discard(e)
        if best == len(edges):
            break
    return best


def award_after_growth(state: State, seat: int) -> None:
    """After `seat` lengthened its trail: the first to reach 5 takes the card; others must exceed the holder."""
    length = trail_length(state, seat)
    state.road_length[seat] = length
    holder = state.longest_road
    if holder == seat or length < LONGEST_ROAD_MINIMUM:
        return
    if holder >= 0:
        if length > state.road_length[holder]:
            state.longest_road = seat
        return
    if all(length > other for s, other in enumerate(state.road_length) if s != seat):
        state.longest_road = seat


def award_after_break(state: State, seats: list[int]) -> None:
    """After a trail was cut (or a ship moved): recompute and settle the card as §8 says."""
    for seat in seats:
        state.road_length[seat] = trail_length(state, seat)
    lengths = state.road_length
    longest = max(lengths)
    leaders = [s for s, length in enumerate(lengths) if length == longest]
    holder = state.longest_road
    if longest < LONGEST_ROAD_MINIMUM:
        state.longest_road = -1
    elif len(leaders) == 1:
        state.longest_road = leaders[0]
    elif holder in leaders:
        return
    else:
        state.longest_road = -1
