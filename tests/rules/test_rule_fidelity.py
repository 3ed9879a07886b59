"""Issue 16's rule bugs, each on a constructed position: a settlement joining road and ship lines, ships off
the board, wrong types in actions, the Longest Road event of a settlement, Year of Plenty in either order,
and `load` recomputing what a snapshot could hold stale."""

from __future__ import annotations

import pytest

import rules
from rules.scenarios import load_map, map_keys

from .rule_positions import BEGINNER, actions_of, assert_refused, hex_ring, new_beginner_game, path_of_edges, row_top

FOUR_CARDS = {"lumber": 1, "brick": 1, "wool": 1, "grain": 1}


def joined_lines() -> rules.State:
    """four_islands_4, seed 1: seat 0's roads 40-51-52 and ships 41-28-29 meet at the empty vertex 35."""
    seats = [
        {"settlements": [25, 27], "roads": [40, 51, 52], "ships": [41, 28, 29], "hand": FOUR_CARDS},
    ]
    return rules.position(scenario="four_islands_4", seed=1, seats=seats)


def test_a_settlement_joining_own_road_and_ship_lines_lengthens_the_route_and_takes_the_card():
    state = joined_lines()
    assert state.road_length[0] == 3 and state.longest_road == -1
    events = rules.apply(state, 0, {"type": "build_settlement", "vertex": 35})
    assert state.road_length[0] == 6
    assert state.longest_road == 0
    assert {"type": "longest_road", "seat": 0, "length": 6} in events
    assert rules.view(state, None)["seats"][0]["longest_road"] is True


def test_a_settlement_that_cuts_the_holders_road_announces_the_card_set_aside():
    # Seat 1 holds the card with six roads along the top of row 0; seat 0 builds in their middle.
    board = new_beginner_game()
    line = row_top(board, 0)
    middle = line[3]
    step = next(n for n in board.derived.topo.vertex_neighbors[middle] if n not in line)
    home = next(n for n in board.derived.topo.vertex_neighbors[step] if n != middle)
    state = rules.position(
        options=BEGINNER,
        seats=[
            {"settlements": [home], "roads": path_of_edges(board, [home, step, middle]), "hand": FOUR_CARDS},
            {"settlements": [line[0]], "roads": path_of_edges(board, line[:7])},
        ],
    )
    assert state.longest_road == 1 and state.road_length[1] == 6
    events = rules.apply(state, 0, {"type": "build_settlement", "vertex": middle})
    assert state.road_length[1] == 3 and state.longest_road == -1
    assert [e for e in events if e["type"] == "longest_road"] == [{"type": "longest_road", "seat": -1, "length": 0}]


# --- ships stay on the board ----------------------------------------------------------------------------


def _off_board_edges(state: rules.State) -> set[int]:
    """Edges with one hex beside them (the rim), or with two frame hexes."""
    topo = state.derived.topo
    frame = set(rules.view(state, None)["board"]["frame"])
    return {e for e, hs in enumerate(topo.edge_hexes) if len(hs) < 2 or set(hs) <= frame}


def test_no_ship_on_the_rim_or_between_frame_hexes_in_the_main_phase():
    # four_islands_3, seed 1: the ship on edge 24 ends at vertex 24, where edge 23 runs between two frame hexes.
    state = rules.position(
        scenario="four_islands_3",
        players=3,
        seed=1,
        seats=[{"settlements": [16], "ships": [24], "hand": {"lumber": 1, "wool": 1}}],
    )
    ships = {a["edge"] for a in actions_of(state, 0, "build_ship")}
    assert ships, "the position offers some ship"
    assert not ships & _off_board_edges(state)
    assert_refused(state, 0, {"type": "build_ship", "edge": 23}, "illegal_action")  # between two frame hexes


@pytest.mark.parametrize("key", map_keys())
def test_no_map_offers_a_ship_off_the_board_at_set_up(key):
    players = load_map(key)["players"][0]
    state = rules.new_game(scenario=key, players=players, seed=3, options={"seat_order": "fixed"})
    off = _off_board_edges(state)
    for vertex in [a["vertex"] for a in actions_of(state, 0, "build_settlement")]:
        trial = rules.load(rules.dump(state))
        rules.apply(trial, 0, {"type": "build_settlement", "vertex": vertex})
        assert not {a["edge"] for a in actions_of(trial, 0, "build_ship")} & off, vertex


def test_no_ship_off_the_board_with_road_building_or_a_ship_move():
    # four_islands_3, seed 1: ships 24 and 39 run from the settlement on 16; edge 23 (between two frame hexes)
    # touches the line where ship 24 ends.
    state = rules.position(
        scenario="four_islands_3",
        players=3,
        seed=1,
        seats=[{"settlements": [16], "ships": [24, 39], "development": {"road_building": 1}}],
    )
    off = _off_board_edges(state)
    assert 23 in off
    moves = actions_of(state, 0, "move_ship")
    assert moves and not {a["to"] for a in moves} & off
    assert_refused(state, 0, {"type": "move_ship", "from": 39, "to": 23}, "illegal_action")
    rules.apply(state, 0, {"type": "play_road_building"})
    ships = {a["edge"] for a in actions_of(state, 0, "build_ship")}
    assert ships and not ships & off
    assert_refused(state, 0, {"type": "build_ship", "edge": 23}, "illegal_action")


@pytest.mark.parametrize("key", map_keys())
def test_no_map_takes_a_ship_off_the_board(key):
    players = load_map(key)["players"][0]
    state = rules.new_game(scenario=key, players=players, seed=3, options={"seat_order": "fixed"})
    assert not [e for e in _off_board_edges(state) if state.derived.ship_edge[e]]


# --- types ----------------------------------------------------------------------------------------------


def test_a_boolean_seat_is_refused_and_never_stored():
    state = rules.position(options=BEGINNER, phase="roll", current=1)
    assert_refused(state, True, {"type": "roll"}, "bad_action")


@pytest.mark.parametrize("bad", [17.0, True, "17", None])
def test_an_id_must_be_an_integer(bad):
    state = rules.new_game(seed=1, options={"seat_order": "fixed", "board": "beginner"})
    assert {"type": "build_settlement", "vertex": 17} in rules.legal_actions(state, 0)
    assert_refused(state, 0, {"type": "build_settlement", "vertex": bad}, "bad_action")


def test_a_boolean_victim_is_refused():
    hexagon = hex_ring(new_beginner_game(), 1, 0)
    state = rules.position(
        options=BEGINNER,
        phase="robber",
        seats=[{}, {"settlements": [hexagon[0]], "hand": {"ore": 1}}],
    )
    target = state.derived.topo.hex_index[(1, 0)]
    assert {"type": "move_robber", "hex": target, "victim": 1} in rules.legal_actions(state, 0)
    assert_refused(state, 0, {"type": "move_robber", "hex": target, "victim": True}, "bad_action")


# --- Year of Plenty in either order ---------------------------------------------------------------------


def test_year_of_plenty_takes_its_two_resources_in_either_order():
    for order in (["grain", "ore"], ["ore", "grain"]):
        state = rules.position(options=BEGINNER, seats=[{"development": {"year_of_plenty": 1}}])
        events = rules.apply(state, 0, {"type": "play_year_of_plenty", "resources": order})
        assert rules.view(state, 0)["seats"][0]["resources"] == {
            "lumber": 0,
            "brick": 0,
            "wool": 0,
            "grain": 1,
            "ore": 1,
        }
        assert events[0]["resources"] == ["grain", "ore"]


# --- load recomputes derived facts ------------------------------------------------------------------------


def test_load_recomputes_stale_lengths_and_holders():
    state = joined_lines()
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 35})
    data = rules.dump(state)
    data["road_length"] = [3, 9, 0, 0]
    data["longest_road"] = 1
    data["largest_army"] = 2
    data["supply"][0]["roads"] = 15
    loaded = rules.load(data)
    assert loaded.road_length == [6, 0, 0, 0]
    assert loaded.longest_road == 0
    assert loaded.largest_army == -1
    assert loaded.supply[0] == state.supply[0]
    assert rules.dump(loaded) == rules.dump(state)
