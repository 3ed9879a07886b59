"""Where a seat may put a piece, and putting it there: the distance rule, connection through its network,
and which kind of piece each edge takes."""

from __future__ import annotations

from .state import State


def distance_rule_ok(state: State, vertex: int) -> bool:
    """No building on this vertex nor on any adjacent vertex (RULES.md §3)."""
    owner = state.vertex_owner
    if owner[vertex] != -1:
        return False
    return all(owner[n] == -1 for n in state.derived.topo.vertex_neighbors[vertex])


def _crowded(state: State) -> set[int]:
    """Vertices the distance rule closes: every building's and their neighbours'."""
    neighbors = state.derived.topo.vertex_neighbors
    crowded = set()
    for buildings in state.seat_buildings:
        for v in buildings:
            crowded.add(v)
            crowded.update(neighbors[v])
    return crowded


def setup_settlement_vertices(state: State) -> list[int]:
    land = state.derived.land_vertex
    crowded = _crowded(state)
    return [v for v in range(len(land)) if land[v] and v not in crowded]


def settlement_vertices(state: State, seat: int) -> list[int]:
    """Free land vertices obeying the distance rule and touched by one of the seat's roads or ships."""
    edge_vertices = state.derived.topo.edge_vertices
    land = state.derived.land_vertex
    crowded = _crowded(state)
    out = set()
    for e in state.seat_edges[seat]:
        for v in edge_vertices[e]:
            if land[v] and v not in crowded:
                out.add(v)
    return sorted(out)


def city_vertices(state: State, seat: int) -> list[int]:
    city = state.vertex_city
    return sorted(v for v in state.seat_buildings[seat] if not city[v])


def network_ends(state: State, seat: int, ship: bool) -> set[int]:
    """Vertices from which the seat may extend a road (ship=False) or a ship line (ship=True).

    A piece continues from one's own building, or from the free end of one's own piece of the same kind:
    never through an opponent's building, and never from road to ship without a building at the joint.
    """
    edge_vertices = state.derived.topo.edge_vertices
    vertex_owner = state.vertex_owner
    edge_ship = state.edge_ship
    ends = set(state.seat_buildings[seat])
    for e in state.seat_edges[seat]:
        if edge_ship[e] == ship:
            for v in edge_vertices[e]:
                if vertex_owner[v] == -1:
                    ends.add(v)
    return ends


def road_edges(state: State, seat: int) -> list[int]:
    """Free edges where the seat may build a road."""
    vertex_edges = state.derived.topo.vertex_edges
    road_edge = state.derived.road_edge
    edge_owner = state.edge_owner
    out = set()
    for v in network_ends(state, seat, ship=False):
        for e in vertex_edges[v]:
            if edge_owner[e] == -1 and road_edge[e]:
                out.add(e)
    return sorted(out)


def ship_edges(state: State, seat: int, ignore_edge: int = -1) -> list[int]:
    """Free edges where the seat may build a ship; none on an edge of the pirate's hex."""
    topo = state.derived.topo
    ship_edge = state.derived.ship_edge
    edge_owner = state.edge_owner
    pirate_edges = topo.hex_edges[state.pirate] if state.pirate >= 0 else ()
    out = set()
    for v in network_ends(state, seat, ship=True):
        for e in topo.vertex_edges[v]:
            if edge_owner[e] == -1 and ship_edge[e] and e not in pirate_edges and e != ignore_edge:
                out.add(e)
    return sorted(out)


def setup_road_edges(state: State, vertex: int) -> list[int]:
    road_edge = state.derived.road_edge
    return [e for e in state.derived.topo.vertex_edges[vertex] if state.edge_owner[e] == -1 and road_edge[e]]


# Entries of state.spots that only buildings change (seat entries change with any piece): hex -> seats with a
# building there (legal.py), what the buildings earn on each roll (actions.py: number -> robber -> plan; a new
# building drops only the numbers around it), and the robber's moves by robbable seats (legal.py).
# HARBOUR_RATES: per seat, its best maritime rates (None until asked for).
BUILDINGS_BY_HEX = -1
HEX_INCOME = -2
ROBBER_MOVES = -3
HARBOUR_RATES = -4
# What survives a road or ship placed or lifted, or the pirate moved; and a settlement becoming a city.
BUILDING_ENTRIES = (BUILDINGS_BY_HEX, HEX_INCOME, ROBBER_MOVES, HARBOUR_RATES)
CITY_ENTRIES = (BUILDINGS_BY_HEX, HEX_INCOME, ROBBER_MOVES, HARBOUR_RATES)
# A seat's entry (state.spots[seat], legal.py): its listed road, ship, settlement and city actions, and its
# ship moves.
ROADS, SHIPS, SETTLEMENTS, CITIES, SHIP_MOVES = range(5)


def forget_spots(state: State, keep: tuple[int, ...] = ()) -> None:
    """Drop the cached spots (State.spots) after pieces or the pirate moved, but the entries in `keep`."""
    spots = state.spots
    kept = {key: spots[key] for key in keep if key in spots} if spots else None
    state.spots = kept or None


def put_edge_piece(state: State, seat: int, edge: int, ship: bool) -> None:
    spots = state.spots
    if spots:
        # The builder's spots all change. For the others, the edge is taken (nothing else of theirs changes:
        # another's road or ship blocks neither their network nor their settlement spots).
        spots.pop(seat, None)
        for other in range(state.players):
            mine = spots.get(other)
            if mine is None:
                continue
            for kind in (ROADS, SHIPS):
                listed = mine[kind]
                if listed and any(action["edge"] == edge for action in listed):
                    mine[kind] = [action for action in listed if action["edge"] != edge]
            mine[SHIP_MOVES] = None
    state.edge_owner[edge] = seat
    state.edge_ship[edge] = ship
    state.seat_edges[seat].append(edge)
    state.supply[seat]["ships" if ship else "roads"] -= 1


def _forget_income(state: State, vertex: int) -> None:
    """Drop the production plans of the numbers on the hexes around a vertex whose building changed."""
    plans = state.spots.get(HEX_INCOME) if state.spots else None
    if plans:
        tokens = state.tokens
        for h in state.derived.topo.vertex_hexes[vertex]:
            plans.pop(tokens[h], None)


def put_settlement(state: State, seat: int, vertex: int) -> None:
    _forget_income(state, vertex)
    forget_spots(state, keep=(HEX_INCOME,))
    state.vertex_owner[vertex] = seat
    state.seat_buildings[seat].append(vertex)
    state.supply[seat]["settlements"] -= 1


def put_city(state: State, seat: int, vertex: int) -> None:
    _forget_income(state, vertex)
    forget_spots(state, keep=CITY_ENTRIES)
    state.vertex_city[vertex] = True
    state.supply[seat]["cities"] -= 1
    state.supply[seat]["settlements"] += 1
