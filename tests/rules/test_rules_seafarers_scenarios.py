"""One test per scenario rule of RULES.md §10 (Oceania, The Great Crossing, Greater Catan, The New World), on
constructed positions over small test maps."""

from __future__ import annotations

import pytest

import rules
from rules.constants import SEA
from rules.geometry import ring
from rules.seafarers import token_sources

from .rule_positions import edit, give
from .seafarers_helpers import (
    coastal_vertex,
    edges,
    hand,
    hx,
    new,
    ship,
    ship_route,
    topo,
)
from .seafarers_maps import SMALL_ISLANDS, THIRD, bag_spec, crossing_spec, isles_spec

# --- Oceania: discovery ----------------------------------------------------------------------------------


def test_an_oceania_reveal_gives_the_resource(sea_maps):
    board = new(sea_maps, isles_spec("isles_fog", reveal=True))
    fog = hx(board, THIRD[9])
    assert board.terrain[fog] == rules.constants.FOG
    assert (
        "hidden_terrain" not in str(rules.view(board, 0))
        and rules.view(board, 0)["board"]["hexes"][fog]["token"] is None
    )
    near_fog = set(topo(board).hex_vertices[fog])
    # A ship line already ends next to the fog; one more ship reaches it.
    e, other = next(
        (e, v)
        for target in topo(board).hex_vertices[fog]
        for e in topo(board).vertex_edges[target]
        for v in topo(board).edge_vertices[e]
        if board.derived.ship_edge[e] and v not in near_fog
    )
    vertex = coastal_vertex(board, hx(board, ring(1)[0]), hx(board, ring(2)[0]))
    state = rules.position(
        scenario=board.scenario,
        seed=3,
        options={"pirate": False},
        seats=[{"settlements": [vertex], "hand": {"lumber": 1, "wool": 1}}],
    )
    state = ship(state, 0, *edges(state, ship_route(state, vertex, {other}, avoid=near_fog)))
    events = rules.apply(state, 0, {"type": "build_ship", "edge": e})
    revealed = next(ev for ev in events if ev["type"] == "revealed")
    assert revealed["terrain"] == "fields" and revealed["token"] == 8 and revealed["resource"] == "grain"
    assert state.terrain[fog] == rules.constants.FIELDS and state.tokens[fog] == 8
    assert hand(state, 0) == {"grain": 1}


# --- The Great Crossing: trade lines ------------------------------------------------------------------------


def crossing(sea_maps):
    """The strait's sea hex (0, 0): its corners 3, 4, 5 touch the west island, 0, 1, 2 the east one. Returns
    the map key, the corners, and the edge between corners i and j."""
    board = new(sea_maps, crossing_spec())
    corners = topo(board).hex_vertices[hx(board, (0, 0))]
    return board.scenario, corners, lambda i, j: edges(board, [corners[i], corners[j]])[0]


def test_a_great_crossing_indirect_line_belongs_to_the_majority(sea_maps):
    key, c, edge = crossing(sea_maps)
    # Seat 1's road runs from its settlement to the coast; seat 0's first ship heads for it.
    state = rules.position(
        scenario=key,
        seed=3,
        seats=[
            {"settlements": [c[4]], "ships": [edge(4, 5)], "hand": {"lumber": 1, "wool": 1}},
            {"settlements": [c[1]], "roads": [edge(0, 1)]},
        ],
    )
    assert state.trade_lines == []
    events = rules.apply(state, 0, {"type": "build_ship", "edge": edge(5, 0)})  # the line is made
    assert state.trade_lines == [[min(c[4], c[1]), max(c[4], c[1]), 0]]
    assert {"type": "trade_line", "seat": 0, "vertices": [min(c[4], c[1]), max(c[4], c[1])]} in events
    assert rules.victory_points(state, 0) == 2 and rules.victory_points(state, 1) == 1


@pytest.mark.parametrize("joiner", [0, 1])
def test_a_great_crossing_tie_goes_to_the_player_who_joined(sea_maps, joiner):
    key, c, edge = crossing(sea_maps)
    pieces = [{"settlements": [c[5]], "ships": [edge(5, 0)]}, {"settlements": [c[1]], "roads": [edge(0, 1)]}]
    joining = pieces[joiner].pop("ships" if joiner == 0 else "roads")[0]
    pieces[joiner]["hand"] = {"lumber": 1, "wool": 1} if joiner == 0 else {"lumber": 1, "brick": 1}
    state = rules.position(scenario=key, seed=3, seats=pieces, current=joiner)
    rules.apply(state, joiner, {"type": "build_ship" if joiner == 0 else "build_road", "edge": joining})
    assert state.trade_lines[0][2] == joiner
    # A line broken by a moved ship loses its token (on seat 0's turn, the ship not new).
    state = edit(state, current=0, ships_built_this_turn=[])
    move = next(a for a in rules.legal_actions(state, 0) if a["type"] == "move_ship" and a["from"] == edge(5, 0))
    events = rules.apply(state, 0, move)
    assert state.trade_lines == [] and events[-1]["type"] == "trade_line_lost"


def test_a_trade_line_may_not_pass_through_another_building(sea_maps):
    key, c, edge = crossing(sea_maps)
    board = rules.new_game(scenario=key, players=4, seed=3)
    beyond = next(v for v in topo(board).vertex_neighbors[c[1]] if v not in c)  # inland from corner 1
    state = rules.position(
        scenario=key,
        seed=3,
        seats=[
            {"settlements": [c[4]], "ships": [edge(4, 5), edge(5, 0)]},
            {"settlements": [beyond], "roads": [edge(0, 1), *edges(board, [c[1], beyond])]},
            {"settlements": [c[0]]},  # a third building on the way
        ],
    )
    linked = {tuple(line[:2]) for line in state.trade_lines}
    assert (min(c[4], beyond), max(c[4], beyond)) not in linked
    assert (min(c[4], c[0]), max(c[4], c[0])) in linked


def test_great_crossing_setup_settlements_on_one_island(sea_maps):
    state = new(sea_maps, crossing_spec())
    west_vertex = next(a["vertex"] for a in rules.legal_actions(state, 0) if state.derived.vertex_islands[a["vertex"]])
    home = state.derived.vertex_islands[west_vertex]
    rules.apply(state, 0, {"type": "build_settlement", "vertex": west_vertex})
    rules.apply(state, 0, rules.legal_actions(state, 0)[0])
    for seat in (1, 2, 3, 3, 2, 1):
        while rules.to_move(state) == [seat]:
            rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    second = rules.legal_actions(state, 0)
    assert second and all(state.derived.vertex_islands[a["vertex"]] & home for a in second)


# --- Greater Catan: the token bag ----------------------------------------------------------------------------


def bag_board(sea_maps):
    """The token-bag map (bag [2, 3], small islands without tokens, no pirate) and the corner shared by the
    first two small islands."""
    board = rules.position(scenario=sea_maps(bag_spec()), seed=3, options={"pirate": False})
    t = topo(board)
    shared = set(t.hex_vertices[hx(board, THIRD[0])]) & set(t.hex_vertices[hx(board, THIRD[1])])
    corner = next(v for v in shared if any(board.terrain[h] == SEA for h in t.vertex_hexes[v]))
    return board, corner


def last_ship_short_of(board, start, island):
    """The ship edges of a route from `start` to a corner of a small island, the last one held back."""
    line = edges(board, ship_route(board, start, set(topo(board).hex_vertices[hx(board, island)])))
    return line[:-1], line[-1]


def test_greater_catan_bag_then_moving_tokens_under_relaxed_constraints(sea_maps):
    board, corner = bag_board(sea_maps)
    assert board.supply[0]["cities"] == 8 and board.token_bag == [2, 3]
    t = topo(board)
    assert all(board.tokens[hx(board, h)] == 0 for h in SMALL_ISLANDS)
    # Seat 0: a settlement on the main island's 6 (the centre) and one on its coast, with two ship lines
    # each one ship short of small islands: first the two that share `corner`, then a third.
    coast = coastal_vertex(board, hx(board, ring(1)[0]), hx(board, ring(2)[0]))
    first = edges(board, ship_route(board, coast, {corner}))
    second, last = last_ship_short_of(board, coast, THIRD[13])
    seats = [
        {
            "settlements": [t.hex_vertices[hx(board, (0, 0))][0], coast],
            "ships": list(dict.fromkeys(first[:-1] + second)),
        }
    ]
    state = give(rules.position(rules.describe(board) | {"seats": seats}), 0, lumber=2, wool=2)
    events = rules.apply(state, 0, {"type": "build_ship", "edge": first[-1]})
    drawn = [ev for ev in events if ev["type"] == "token_drawn"]
    assert sorted(ev["token"] for ev in drawn) == [2, 3] and state.token_bag == []
    rules.apply(state, 0, {"type": "build_ship", "edge": last})  # the bag is empty: a main token must move
    assert state.phase == "place_token" and state.pending_tokens
    sources = token_sources(state, 0)
    # (a) first: a hex where seat 0 has a building.
    assert sources and all(any(state.vertex_owner[v] == 0 for v in t.hex_vertices[h]) for h in sources)
    assert rules.legal_actions(state, 0) == [{"type": "move_token", "hex": h} for h in sources]
    destination = state.pending_tokens[0]
    moved = state.tokens[sources[0]]
    rules.apply(state, 0, {"type": "move_token", "hex": sources[0]})
    assert state.tokens[destination] == moved and state.tokens[sources[0]] == 0


def test_greater_catan_fallback_drops_the_building_constraint_first(sea_maps):
    board, corner = bag_board(sea_maps)
    # Seat 0 lives on the small islands only (no building on the main island, so (a) cannot hold): its first
    # ship empties the bag on the two islands at `corner`, its second reaches a third island.
    line, last = last_ship_short_of(board, corner, THIRD[13])
    first = next(e for e in topo(board).vertex_edges[corner] if board.derived.ship_edge[e] and e not in line)
    seats = [{"settlements": [corner], "ships": line}]
    state = give(rules.position(rules.describe(board) | {"seats": seats}), 0, lumber=2, wool=2)
    rules.apply(state, 0, {"type": "build_ship", "edge": first})
    assert state.token_bag == []
    rules.apply(state, 0, {"type": "build_ship", "edge": last})
    assert state.phase == "place_token"
    sources = token_sources(state, 0)
    main = state.derived.setup_hexes
    assert sources and all(h in main and state.tokens[h] for h in sources)
    assert rules.legal_actions(state, 0) == [{"type": "move_token", "hex": h} for h in sources]


@pytest.mark.parametrize("key", ["new_world_3", "new_world_4"])
def test_the_new_world_is_a_new_legal_map_each_game(key):
    """A new random map from the table's hexes each game: harbours on coast edges, never two on one vertex,
    and no two red numbers side by side."""
    players = 3 if key.endswith("3") else 4
    boards = []
    for seed in range(8):
        state = rules.new_game(scenario=key, players=players, seed=seed)
        t = topo(state)
        boards.append(tuple(state.terrain))
        corners = [v for e, _ in state.harbours for v in t.edge_vertices[e]]
        assert len(corners) == len(set(corners))
        for e, _ in state.harbours:
            kinds = sorted(state.terrain[h] == SEA for h in t.edge_hexes[e])
            assert kinds == [False, True]
        for h, token in enumerate(state.tokens):
            if token in (6, 8):
                assert all(state.tokens[n] not in (6, 8) for n in t.hex_neighbors[h])
    assert len(set(boards)) == len(boards)
