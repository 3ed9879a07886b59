"""One test per Seafarers rule of RULES.md §9–§10 (ships, set-up, robber and pirate, trade routes), on constructed
positions over small test maps; the scenarios' own rules are in test_rules_seafarers_scenarios.py."""

from __future__ import annotations

import pytest

import rules
from rules import placement
from rules.constants import GOLD, ROAD_BUILDING, SEA
from rules.geometry import ring
from rules.seafarers import movable_ships

from .rule_positions import edit, give, hold, settle
from .seafarers_helpers import (
    coastal_vertex,
    edges,
    hand,
    hx,
    new,
    refuse,
    roll,
    sea_path,
    ship,
    ship_route,
    topo,
    without_pirate,
)
from .seafarers_maps import THIRD, isles_spec


@pytest.fixture
def isles(sea_maps):
    """Seat 0 has a coastal settlement on the main island's edge, after rolling."""
    board = new(sea_maps, isles_spec("isles_plain", island_bonus=[1, 2]))
    land, sea = hx(board, ring(1)[0]), hx(board, ring(2)[0])
    vertex = coastal_vertex(board, land, sea)
    return rules.position(scenario=board.scenario, seed=3, seats=[{"settlements": [vertex]}]), vertex


# --- ships -------------------------------------------------------------------------------------------


def test_a_ship_costs_lumber_and_wool_and_sits_only_on_sea_or_coast_edges(isles):
    state, vertex = isles
    state = without_pirate(state)
    state = give(state, 0, lumber=1, wool=1)
    options = [a["edge"] for a in rules.legal_actions(state, 0) if a["type"] == "build_ship"]
    assert options and all(state.derived.ship_edge[e] for e in options)
    assert all(vertex in topo(state).edge_vertices[e] for e in options)
    for e in options:
        assert any(state.terrain[h] == SEA for h in topo(state).edge_hexes[e])
    rules.apply(state, 0, {"type": "build_ship", "edge": options[0]})
    assert sum(state.hands[0]) == 0 and state.edge_ship[options[0]] and state.supply[0]["ships"] == 14


def test_ship_lines_extend_and_branch(isles):
    state, vertex = isles
    state = without_pirate(state)
    path = sea_path(state, vertex, 2)
    state = ship(state, 0, *edges(state, path))
    state = give(state, 0, lumber=2, wool=2)
    options = {a["edge"] for a in rules.legal_actions(state, 0) if a["type"] == "build_ship"}
    from_middle = {e for e in topo(state).vertex_edges[path[1]] if state.edge_owner[e] == -1}
    from_end = {e for e in topo(state).vertex_edges[path[2]] if state.edge_owner[e] == -1}
    assert from_middle & options and from_end & options


def test_a_ship_is_blocked_by_the_pirate_when_placed(isles):
    state, vertex = isles
    sea = next(h for h in topo(state).vertex_hexes[vertex] if state.terrain[h] == SEA)
    state = edit(state, pirate=sea)
    state = give(state, 0, lumber=1, wool=1)
    options = {a["edge"] for a in rules.legal_actions(state, 0) if a["type"] == "build_ship"}
    assert not options & set(topo(state).hex_edges[sea])
    refuse(
        state,
        0,
        {
            "type": "build_ship",
            "edge": next(iter(set(topo(state).hex_edges[sea]) & set(topo(state).vertex_edges[vertex]))),
        },
    )


def test_a_ship_next_to_the_pirate_cannot_move_away_nor_move_next_to_it(isles):
    board, vertex = isles
    path = sea_path(board, vertex, 2)
    line = edges(board, path)
    blocking = next(h for h in topo(board).edge_hexes[line[-1]] if board.terrain[h] == SEA)

    def with_pirate(pirate):
        return rules.position(
            scenario=board.scenario, seed=3, seats=[{"settlements": [vertex], "ships": line}], pirate=pirate
        )

    state = with_pirate(blocking)
    assert movable_ships(state, 0) == []
    assert not [a for a in rules.legal_actions(state, 0) if a["type"] == "move_ship"]
    # Elsewhere, the last ship moves, and destinations on the pirate's edges are never offered.
    state = with_pirate(hx(board, ring(2)[6]))
    assert movable_ships(state, 0) == [line[-1]]
    destinations = {a["to"] for a in rules.legal_actions(state, 0) if a["type"] == "move_ship"}
    assert destinations and not destinations & set(topo(state).hex_edges[state.pirate])


def test_moving_a_ship_of_a_closed_line_is_refused(isles):
    state, vertex = isles
    state = without_pirate(state)
    path = sea_path(state, vertex, 3)
    line = edges(state, path)
    state = ship(state, 0, *line)
    assert movable_ships(state, 0) == [line[-1]]
    state = settle(state, 0, path[-1])  # the line now links two settlements: closed
    assert movable_ships(state, 0) == []
    refuse(state, 0, {"type": "move_ship", "from": line[-1], "to": line[-1]})


def test_moving_a_ship_built_this_turn_is_refused_and_only_one_move_per_turn(isles):
    state, vertex = isles
    state = without_pirate(state)
    path = sea_path(state, vertex, 2)
    line = edges(state, path)
    state = ship(state, 0, line[0])
    state = give(state, 0, lumber=1, wool=1)
    rules.apply(state, 0, {"type": "build_ship", "edge": line[1]})
    assert line[1] not in movable_ships(state, 0)
    assert not [a for a in rules.legal_actions(state, 0) if a["type"] == "move_ship" and a["from"] == line[1]]
    rules.apply(state, 0, {"type": "end_turn"})
    state = edit(state, phase="main", current=0, dice=[3, 4])  # seat 0's next turn, after its roll
    move = next(a for a in rules.legal_actions(state, 0) if a["type"] == "move_ship")
    rules.apply(state, 0, move)
    assert not [a for a in rules.legal_actions(state, 0) if a["type"] == "move_ship"]
    refuse(state, 0, {"type": "move_ship", "from": move["to"], "to": move["from"]})


def test_a_road_never_continues_a_ship_without_a_settlement(isles):
    state, vertex = isles
    state = without_pirate(state)
    island = hx(state, THIRD[0])
    target = next(
        v for v in topo(state).hex_vertices[island] if any(state.terrain[h] == SEA for h in topo(state).vertex_hexes[v])
    )
    # A ship line of seat 0 ends on the small island's coast, with no settlement there.
    state = ship(state, 0, *edges(state, ship_route(state, vertex, {target})))
    state = give(state, 0, lumber=1, brick=1)
    roads = {a["edge"] for a in rules.legal_actions(state, 0) if a["type"] == "build_road"}
    assert roads, "roads still go from the settlement"
    assert not roads & set(topo(state).vertex_edges[target])


def test_a_settlement_founded_from_a_ship_line_and_the_island_bonus(isles):
    state, vertex = isles
    state = without_pirate(state)
    island = hx(state, THIRD[0])
    route = ship_route(state, vertex, set(topo(state).hex_vertices[island]))
    state = ship(state, 0, *edges(state, route))
    state = give(state, 0, lumber=1, brick=1, wool=1, grain=1)
    spots = {a["vertex"] for a in rules.legal_actions(state, 0) if a["type"] == "build_settlement"}
    reached = {route[-1]}
    assert reached & spots
    spot = min(reached & spots)
    events = rules.apply(state, 0, {"type": "build_settlement", "vertex": spot})
    assert {"type": "island_bonus", "seat": 0, "vertex": spot, "points": 1} in events
    assert state.vp_tokens[0] == 1 and rules.victory_points(state, 0) == 3


def test_the_foreign_island_bonus_is_once_per_island_and_two_for_later_islands(isles):
    board, vertex = isles
    board = without_pirate(board)
    t = topo(board)

    def lone_corner(island, taken=()):
        """A coastal corner of a one-hex island touching no other island, two steps from `taken`."""
        return next(
            v
            for v in t.hex_vertices[hx(board, island)]
            if sum(board.derived.land_hex[h] for h in t.vertex_hexes[v]) == 1
            and all(v != u and v not in t.vertex_neighbors[u] for u in taken)
        )

    v1 = lone_corner(THIRD[0])
    v1b = lone_corner(THIRD[0], taken=[v1])
    v2 = lone_corner(THIRD[12])
    lines = [ship_route(board, vertex, {v1}), ship_route(board, v1, {v1b}), ship_route(board, vertex, {v2})]
    ships = list(dict.fromkeys(e for line in lines for e in edges(board, line)))
    description = rules.describe(board)
    description["seats"][0]["ships"] = ships
    state = rules.position(description)
    state = give(state, 0, lumber=3, brick=3, wool=3, grain=3)
    bonuses = []
    for v in (v1, v1b, v2):
        events = rules.apply(state, 0, {"type": "build_settlement", "vertex": v})
        bonuses.append([e["points"] for e in events if e["type"] == "island_bonus"])
    assert bonuses == [[1], [], [2]]  # 1 for the first foreign island, none again there, 2 for a later one
    assert state.vp_tokens[0] == 3


# --- set-up ------------------------------------------------------------------------------------------


def test_a_coastal_setup_settlement_may_take_a_ship_instead_of_a_road(sea_maps):
    state = new(sea_maps, isles_spec("isles_setup"))
    land, sea = hx(state, ring(1)[0]), hx(state, ring(2)[0])
    vertex = coastal_vertex(state, land, sea)
    rules.apply(state, 0, {"type": "build_settlement", "vertex": vertex})
    kinds = {a["type"] for a in rules.legal_actions(state, 0)}
    assert kinds == {"build_road", "build_ship"}
    ship_edge = next(a for a in rules.legal_actions(state, 0) if a["type"] == "build_ship")
    rules.apply(state, 0, ship_edge)
    assert state.edge_ship[ship_edge["edge"]] and state.phase == "setup_settlement"


def test_four_islands_coastal_setup_settlement_must_take_a_ship(sea_maps):
    state = new(sea_maps, isles_spec("isles_four", setup_ship_required=True))
    land, sea = hx(state, ring(1)[0]), hx(state, ring(2)[0])
    rules.apply(state, 0, {"type": "build_settlement", "vertex": coastal_vertex(state, land, sea)})
    assert {a["type"] for a in rules.legal_actions(state, 0)} == {"build_ship"}


def test_setup_settlements_only_in_the_setup_area(sea_maps):
    state = new(sea_maps, isles_spec("isles_area"))
    main = {hx(state, h) for h in [(0, 0), *ring(1)]}
    for action in rules.legal_actions(state, 0):
        land = [h for h in topo(state).vertex_hexes[action["vertex"]] if state.derived.land_hex[h]]
        assert land and all(h in main for h in land)


def test_a_gold_choice_at_setup(sea_maps):
    state = new(sea_maps, isles_spec("isles_gold"))
    gold = next(h for h, t in enumerate(state.terrain) if t == GOLD and h in {hx(state, c) for c in ring(1)})
    for _ in range(4):
        seat = rules.to_move(state)[0]
        options = [a for a in rules.legal_actions(state, seat) if gold not in topo(state).vertex_hexes[a["vertex"]]]
        rules.apply(state, seat, options[0])
        rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    seat = rules.to_move(state)[0]
    at_gold = next(a for a in rules.legal_actions(state, seat) if gold in topo(state).vertex_hexes[a["vertex"]])
    rules.apply(state, seat, at_gold)
    assert state.phase == "gold" and rules.to_move(state) == [seat] and state.gold_owed[seat] == 1
    refuse(state, seat, {"type": "choose_gold", "cards": {"ore": 2}})
    before = sum(state.hands[seat])
    rules.apply(state, seat, {"type": "choose_gold", "cards": {"ore": 1}})
    assert sum(state.hands[seat]) == before + 1 and state.phase == "setup_road"


def test_a_city_on_gold_chooses_two_possibly_different_resources(isles):
    state, _ = isles
    gold = next(h for h, t in enumerate(state.terrain) if t == GOLD and state.tokens[h] == 4)
    v = next(v for v in topo(state).hex_vertices[gold] if placement.distance_rule_ok(state, v))
    state = settle(state, 1, v, city=True)
    state, _ = roll(state, 4)
    assert state.phase == "gold" and state.gold_owed[1] == 2
    rules.apply(state, 1, {"type": "choose_gold", "cards": {"wool": 1, "ore": 1}})
    assert hand(state, 1) == {"wool": 1, "ore": 1} and state.phase == "main"


# --- development, robber, pirate ------------------------------------------------------------------------


def test_road_building_may_place_ships(isles):
    state, vertex = isles
    state = without_pirate(state)
    state = hold(state, 0, ROAD_BUILDING)
    rules.apply(state, 0, {"type": "play_road_building"})
    first = next(a for a in rules.legal_actions(state, 0) if a["type"] == "build_ship")
    rules.apply(state, 0, first)
    second = next(a for a in rules.legal_actions(state, 0) if a["type"] == "build_road")
    rules.apply(state, 0, second)
    assert state.phase == "main" and state.supply[0]["ships"] == 14 and state.supply[0]["roads"] == 14


def test_the_robber_starts_off_the_board_without_a_desert_and_goes_on_land_only(isles):
    state, _ = isles
    fresh = rules.new_game(scenario="isles_plain", players=4, seed=1)
    assert fresh.robber == -1 and rules.view(fresh, None)["board"]["robber"] is None
    state, _ = roll(state, 7)
    robber = [a["hex"] for a in rules.legal_actions(state, 0) if a["type"] == "move_robber"]
    assert robber and all(state.derived.land_hex[h] for h in robber)


def test_the_pirate_variant_moves_the_pirate_and_steals_from_ship_owners(isles):
    state, vertex = isles
    state = without_pirate(state)
    path = sea_path(state, vertex, 1)
    target = next(h for h in topo(state).edge_hexes[edges(state, path)[0]] if state.terrain[h] == SEA)
    state = rules.position(
        scenario=state.scenario,
        seed=3,
        seats=[{}, {"settlements": [vertex], "ships": edges(state, path), "hand": {"ore": 2}}],
        pirate=hx(state, ring(2)[6]),
    )
    state, _ = roll(state, 7)
    options = [a for a in rules.legal_actions(state, 0) if a["type"] == "move_pirate"]
    assert {"type": "move_pirate", "hex": target} in options  # seed rule: from each owner, no choice
    rules.apply(state, 0, {"type": "move_pirate", "hex": target})
    assert hand(state, 0) == {"ore": 1} and state.pirate == target


def test_the_pirate_steal_option_one_chosen_player(sea_maps):
    board = new(sea_maps, isles_spec("isles_pirate_one"), pirate_steal="one")
    land, sea = hx(board, ring(1)[0]), hx(board, ring(2)[0])
    vertex = coastal_vertex(board, land, sea)
    e = next(e for e in topo(board).vertex_edges[vertex] if board.derived.ship_edge[e])
    state = rules.position(
        scenario=board.scenario,
        seed=3,
        options={"pirate_steal": "one"},
        seats=[{}, {"settlements": [vertex], "ships": [e], "hand": {"ore": 1}}],
    )
    state, _ = roll(state, 7)
    target = next(h for h in topo(state).edge_hexes[e] if state.terrain[h] == SEA)
    assert {"type": "move_pirate", "hex": target, "victim": 1} in rules.legal_actions(state, 0)


# --- longest trade route -------------------------------------------------------------------------------


def test_the_trade_route_joins_roads_and_ships_only_through_a_settlement(isles):
    state, vertex = isles
    state = without_pirate(state)
    sea_line = sea_path(state, vertex, 3)
    state = ship(state, 0, *edges(state, sea_line))
    land_edges = [
        e for e in topo(state).vertex_edges[vertex] if state.derived.road_edge[e] and state.edge_owner[e] == -1
    ]
    description = rules.describe(state)
    description["seats"][0]["roads"] = [land_edges[0]]
    state = rules.position(description)
    assert state.road_length[0] == 4, "road and ships join at the settlement"
    # Without a settlement at the joint they do not: see test_rule_fidelity's settlement joining the lines.
