"""RULES.md §3: start of the game — the set-up snake, the distance rule, set-up roads, starting resources."""

from __future__ import annotations

import rules
from rules.constants import PRODUCING, RESOURCES
from rules.state import ROLL, SETUP_ROAD, SETUP_SETTLEMENT

from .rule_positions import actions_of, assert_refused, kinds, new_beginner_game


def play_setup_turn(state: rules.State, vertex: int | None = None, edge: int | None = None) -> int:
    """Place one set-up settlement and its road (the first legal ones unless given); returns the seat."""
    seat = rules.to_move(state)[0]
    if vertex is None:
        vertex = actions_of(state, seat, "build_settlement")[0]["vertex"]
    rules.apply(state, seat, {"type": "build_settlement", "vertex": vertex})
    if edge is None:
        edge = actions_of(state, seat, "build_road")[0]["edge"]
    rules.apply(state, seat, {"type": "build_road", "edge": edge})
    return seat


def test_setup_snake_round_one_in_seat_order_round_two_reversed():
    for players in (3, 4):
        state = new_beginner_game(players=players)
        movers = [play_setup_turn(state) for _ in range(2 * players)]
        forward = list(range(players))
        assert movers == forward + forward[::-1]
        assert state.phase == ROLL
        assert rules.to_move(state) == [0]


def test_setup_snake_starts_from_the_first_player():
    # With random seat order, round one still goes in seat order, but from the drawn first player.
    seen = set()
    for seed in range(40):
        state = rules.new_game(players=4, seed=seed)
        first = state.first
        seen.add(first)
        if first == 0:
            continue
        movers = [play_setup_turn(state) for _ in range(8)]
        round_one = [(first + i) % 4 for i in range(4)]
        assert movers == round_one + round_one[::-1]
        # The first player also takes the first turn of the game.
        assert state.phase == ROLL and rules.to_move(state) == [first]
    assert len(seen) > 1


def test_setup_each_turn_places_one_settlement_then_one_road():
    state = new_beginner_game()
    assert kinds(state, 0) == {"build_settlement"}
    vertex = actions_of(state, 0, "build_settlement")[0]["vertex"]
    rules.apply(state, 0, {"type": "build_settlement", "vertex": vertex})
    assert state.phase == SETUP_ROAD
    assert kinds(state, 0) == {"build_road"}
    assert rules.to_move(state) == [0]
    edge = actions_of(state, 0, "build_road")[0]["edge"]
    rules.apply(state, 0, {"type": "build_road", "edge": edge})
    assert state.phase == SETUP_SETTLEMENT
    assert rules.to_move(state) == [1]
    assert rules.legal_actions(state, 0) == []


def test_distance_rule_forbids_adjacent_settlement_in_setup():
    state = new_beginner_game()
    topo = state.derived.topo
    vertex = 43  # a corner of the desert, inland
    play_setup_turn(state, vertex=vertex)
    offered = {a["vertex"] for a in actions_of(state, 1, "build_settlement")}
    assert vertex not in offered
    for n in topo.vertex_neighbors[vertex]:
        assert n not in offered
        assert_refused(state, 1, {"type": "build_settlement", "vertex": n})
    assert_refused(state, 1, {"type": "build_settlement", "vertex": vertex})
    # Two steps away is fine.
    two_away = {m for n in topo.vertex_neighbors[vertex] for m in topo.vertex_neighbors[n]} - {vertex}
    assert two_away & offered


def test_setup_settlements_only_on_land_vertices():
    state = new_beginner_game()
    offered = {a["vertex"] for a in actions_of(state, 0, "build_settlement")}
    land = state.derived.land_vertex
    assert offered == {v for v in range(len(land)) if land[v]}
    sea_vertex = next(v for v in range(len(land)) if not land[v])
    assert_refused(state, 0, {"type": "build_settlement", "vertex": sea_vertex})


def test_setup_road_must_touch_the_just_placed_settlement():
    state = new_beginner_game()
    topo = state.derived.topo
    # Round one: the road goes next to the settlement.
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 43})
    offered = {a["edge"] for a in actions_of(state, 0, "build_road")}
    assert offered == set(topo.vertex_edges[43])
    far = next(e for e in range(topo.edge_count) if state.derived.road_edge[e] and 43 not in topo.edge_vertices[e])
    assert_refused(state, 0, {"type": "build_road", "edge": far})
    rules.apply(state, 0, {"type": "build_road", "edge": topo.vertex_edges[43][0]})
    for _ in range(6):
        play_setup_turn(state)
    # Round two, seat 0 again: a road at the first settlement is refused, only the new one counts.
    assert rules.to_move(state) == [0]
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 84})
    offered = {a["edge"] for a in actions_of(state, 0, "build_road")}
    assert offered == {e for e in topo.vertex_edges[84] if state.derived.road_edge[e]}
    free_at_first = [e for e in topo.vertex_edges[43] if state.edge_owner[e] == -1]
    assert free_at_first
    for e in free_at_first:
        assert_refused(state, 0, {"type": "build_road", "edge": e})


def expected_start(state: rules.State, vertex: int) -> dict[str, int]:
    gained = dict.fromkeys(RESOURCES, 0)
    for h in state.derived.topo.vertex_hexes[vertex]:
        if state.terrain[h] in PRODUCING:
            gained[RESOURCES[state.terrain[h]]] += 1
    return {k: v for k, v in gained.items() if v}


def test_starting_resources_come_from_the_second_settlement_only():
    state = new_beginner_game(players=3)
    firsts = [22, 60, 66]  # seat 0, 1, 2 in round one
    seconds = [84, 49, 12]  # seat 2, 1, 0 in round two (snake)
    for vertex in firsts:
        play_setup_turn(state, vertex=vertex)
    assert state.hands == [[0] * 5] * 3, "the first settlement yields nothing"
    for seat, vertex in zip((2, 1, 0), seconds, strict=True):
        before = list(state.bank)
        play_setup_turn(state, vertex=vertex)
        want = expected_start(state, vertex)
        got = {RESOURCES[r]: n for r, n in enumerate(state.hands[seat]) if n}
        assert got == want
        assert sum(before) - sum(state.bank) == sum(want.values())
    assert sum(map(sum, state.hands)) > 0


def test_starting_resources_nothing_from_desert_or_sea():
    state = new_beginner_game(players=3)
    for vertex in (22, 60, 66, 84, 49):
        play_setup_turn(state, vertex=vertex)
    # Seat 0's second settlement: vertex 36 touches the desert (0, 0), hills (0, -1) and pasture (1, -1).
    assert rules.to_move(state) == [0]
    terrains = sorted(state.terrain[h] for h in state.derived.topo.vertex_hexes[36])
    assert 5 in terrains  # the desert
    play_setup_turn(state, vertex=36)
    assert sum(state.hands[0]) == 2
    # A coastal vertex: two sea hexes and one land hex give one card.
    state2 = new_beginner_game(players=3)
    for vertex in (22, 60, 66, 84, 49):
        play_setup_turn(state2, vertex=vertex)
    coastal = 10  # top corner of (0, -2), mountains, touching sea twice
    assert sum(state2.terrain[h] == 6 for h in state2.derived.topo.vertex_hexes[coastal]) == 2
    play_setup_turn(state2, vertex=coastal)
    assert state2.hands[0] == [0, 0, 0, 0, 1]


def test_no_trading_and_no_development_cards_during_setup():
    # Seat 0 places last in the snake: after its second settlement it holds cards and must still lay a road.
    state = new_beginner_game()
    for _ in range(7):
        play_setup_turn(state)
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 43})
    assert state.phase == SETUP_ROAD and sum(state.hands[0]) >= 1
    assert kinds(state, 0) == {"build_road"}
    held = next(name for name, n in zip(RESOURCES, state.hands[0], strict=True) if n)
    other = next(name for name in RESOURCES if name != held)
    for action in (
        {"type": "offer_trade", "give": {held: 1}, "get": {other: 1}},
        {"type": "trade_bank", "give": held, "get": other},
        {"type": "play_knight"},
        {"type": "play_monopoly", "resource": "ore"},
        {"type": "buy_development"},
        {"type": "roll"},
        {"type": "end_turn"},
    ):
        assert_refused(state, 0, action)
