"""Longest Road (and Seafarers' longest trade route): trail lengths and who holds the card (RULES.md §8)."""

from __future__ import annotations

from .constants import LONGEST_ROAD_MINIMUM
from .state import State


def trail_length(state: State, seat: int) -> int:
    """The longest trail through this seat's roads and ships, each edge once.

    An opponent's building cuts the trail at its vertex; road and ship join only at one's own building.
    The search runs on a graph of "nodes" where those rules are plain connectivity: a vertex without the
    seat's building is a road node and a ship node; an opponent's building is one dead end per piece touching
    it. A longest trail in a graph starts at a node of odd degree (a trail from an even node could be
    extended at its start; a closed one, along an edge leaving it), and a part where every degree is even is
    covered whole by one closed trail (Euler): so only odd nodes start the search.
    """
    edges = state.seat_edges[seat]
    if not edges:
        return 0
    edge_vertices = state.derived.topo.edge_vertices
    vertex_owner = state.vertex_owner
    edge_ship = state.edge_ship
    # node -> [(edge bit, node at the other end)]; a bit mask marks the edges a trail has used.
    adjacency: dict[int, list[tuple[int, int]]] = {}
    dead_end = 8 * len(vertex_owner)  # node ids above every vertex's, one per piece end at a cut
    for i, e in enumerate(edges):
        ends = []
        for v in edge_vertices[e]:
            owner = vertex_owner[v]
            if owner == seat:
                ends.append(4 * v)
            elif owner == -1:
                ends.append(4 * v + 1 + edge_ship[e])
            else:
                dead_end += 1
                ends.append(dead_end)
        bit = 1 << i
        adjacency.setdefault(ends[0], []).append((bit, ends[1]))
        adjacency.setdefault(ends[1], []).append((bit, ends[0]))
    best = 0
    starts = []
    seen: set[int] = set()
    for node in adjacency:
        if node in seen:
            continue
        part, stack = [node], [node]
        seen.add(node)
        while stack:
            for _, other in adjacency[stack.pop()]:
                if other not in seen:
                    seen.add(other)
                    part.append(other)
                    stack.append(other)
        odd = [n for n in part if len(adjacency[n]) % 2]
        if odd:
            starts.extend(odd)
        else:
            best = max(best, sum(len(adjacency[n]) for n in part) // 2)

    def extend(node: int, used: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        for bit, other in adjacency[node]:
            if not used & bit:
                extend(other, used | bit, length + 1)

    full = len(edges)
    for node in starts:
        if best == full:
            break
        extend(node, 0, 0)
    return best


def length_after_placing(state: State, seat: int, edge: int) -> int:
    """The seat's trail length once its new piece on `edge` is down, from the stored length before it.

    Only trails through the new piece can be longer. When one end of it joins nothing else of the seat's, such
    a trail ends there, so it is the piece plus the longest trail from its other end: one search from one
    vertex instead of from every piece. A piece joining pieces at both ends needs the full search.
    """
    a, b = state.derived.topo.edge_vertices[edge]
    if _joins(state, seat, edge, a):
        if _joins(state, seat, edge, b):
            return trail_length(state, seat)
        start = a
    else:
        start = b
    edge_owner, edge_ship, vertex_owner = state.edge_owner, state.edge_ship, state.vertex_owner
    topo = state.derived.topo
    edge_vertices, vertex_edges = topo.edge_vertices, topo.vertex_edges
    used = {edge}
    best = 1

    def extend(vertex: int, ship: bool, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        owner = vertex_owner[vertex]
        if owner != -1 and owner != seat:
            return
        for e in vertex_edges[vertex]:
            if edge_owner[e] != seat or e in used or (edge_ship[e] != ship and owner != seat):
                continue
            used.add(e)
            x, y = edge_vertices[e]
            extend(y if x == vertex else x, edge_ship[e], length + 1)
            used.discard(e)

    extend(start, edge_ship[edge], 1)
    return max(state.road_length[seat], best)


def _joins(state: State, seat: int, edge: int, vertex: int) -> bool:
    """Whether a trail along `edge` may go on at `vertex` over another of the seat's pieces."""
    owner = state.vertex_owner[vertex]
    if owner != -1 and owner != seat:
        return False
    edge_owner, edge_ship, ship = state.edge_owner, state.edge_ship, state.edge_ship[edge]
    for e in state.derived.topo.vertex_edges[vertex]:
        if e != edge and edge_owner[e] == seat and (owner == seat or edge_ship[e] == ship):
            return True
    return False


def award_after_growth(state: State, seat: int, edge: int = -1) -> None:
    """After `seat` lengthened its trail (with a new piece on `edge`, when given): the first to reach 5 takes
    the card; others must exceed the holder."""
    length = trail_length(state, seat) if edge < 0 else length_after_placing(state, seat, edge)
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


def recount(state: State) -> None:
    """Every trail measured afresh and the card settled from them, as after a cut: for a state whose stored
    lengths and holder are not to be trusted (one just loaded or built from a description)."""
    award_after_break(state, list(range(state.players)))
