"""RULES.md §6: building — costs paid to the bank, where each piece goes, the distance rule, piece limits."""

from __future__ import annotations

import rules
from rules import placement

from .rule_positions import (
    actions_of,
    assert_refused,
    counts,
    edge_between,
    give,
    lay_road,
    main_phase_game,
    row_bottom,
    row_top,
    settle,
    total_cards,
)


def road_edges(state: rules.State, seat: int = 0) -> set[int]:
    return {a["edge"] for a in actions_of(state, seat, "build_road")}


def settlement_spots(state: rules.State, seat: int = 0) -> set[int]:
    return {a["vertex"] for a in actions_of(state, seat, "build_settlement")}


def test_road_costs_brick_and_lumber_paid_to_the_bank():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = give(state, 0, lumber=1, brick=1, wool=1)
    rules.apply(state, 0, {"type": "build_road", "edge": edge_between(state, 43, 51)})
    assert state.hands[0] == counts(wool=1)
    assert state.bank == [19, 19, 18, 19, 19]
    assert state.supply[0]["roads"] == 14
    assert total_cards(state) == [19] * 5


def test_settlement_costs_brick_lumber_wool_grain_paid_to_the_bank():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = lay_road(state, 0, [43, 51, 58])
    state = give(state, 0, lumber=1, brick=1, wool=1, grain=1, ore=1)
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 58})
    assert state.hands[0] == counts(ore=1)
    assert state.bank == [19, 19, 19, 19, 18]
    assert state.supply[0]["settlements"] == 3  # two on the board


def test_city_costs_three_ore_two_grain_paid_to_the_bank():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = give(state, 0, grain=2, ore=3, wool=1)
    rules.apply(state, 0, {"type": "build_city", "vertex": 43})
    assert state.hands[0] == counts(wool=1)
    assert state.bank == [19, 19, 18, 19, 19]


def test_development_card_costs_ore_wool_grain_paid_to_the_bank():
    state = main_phase_game()
    state = give(state, 0, wool=1, grain=1, ore=1, lumber=1)
    rules.apply(state, 0, {"type": "buy_development"})
    assert state.hands[0] == counts(lumber=1)
    assert state.bank == [18, 19, 19, 19, 19]
    assert len(state.deck) == 24


def test_nothing_is_built_without_its_cost():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = lay_road(state, 0, [43, 51, 58])
    state = give(state, 0, lumber=1, wool=1, grain=1, ore=2)  # no brick, one ore short
    assert {a["type"] for a in rules.legal_actions(state, 0)} == {"end_turn", "buy_development"}
    assert_refused(state, 0, {"type": "build_road", "edge": edge_between(state, 58, 65)})
    assert_refused(state, 0, {"type": "build_settlement", "vertex": 58})
    assert_refused(state, 0, {"type": "build_city", "vertex": 43})


def test_road_goes_on_a_free_edge_touching_your_road_settlement_or_city():
    state = main_phase_game()
    topo = state.derived.topo
    state = settle(state, 0, 43)
    state = lay_road(state, 0, [43, 51])
    state = settle(state, 0, 24, city=True)
    state = give(state, 0, lumber=5, brick=5)
    expected = set()
    for v in (43, 51, 24):
        expected |= {e for e in topo.vertex_edges[v] if state.edge_owner[e] == -1 and state.derived.road_edge[e]}
    assert road_edges(state) == expected
    far = edge_between(state, 84, 79)
    assert_refused(state, 0, {"type": "build_road", "edge": far})
    # An opponent's road does not extend yours, nor may you build on an occupied edge.
    state = settle(state, 1, 84)
    state = lay_road(state, 1, [84, 79])
    assert_refused(state, 0, {"type": "build_road", "edge": far})
    assert_refused(state, 0, {"type": "build_road", "edge": edge_between(state, 43, 51)})


def test_no_road_on_an_edge_between_two_sea_hexes():
    state = main_phase_game()
    topo = state.derived.topo
    coast = 10  # top corner of (0, -2), two sea hexes around it
    state = settle(state, 0, coast)
    state = give(state, 0, lumber=3, brick=3)
    sea_edge = [e for e in topo.vertex_edges[coast] if not state.derived.road_edge[e]]
    assert len(sea_edge) == 1
    assert sea_edge[0] not in road_edges(state)
    assert_refused(state, 0, {"type": "build_road", "edge": sea_edge[0]})


def test_road_cannot_pass_through_an_opponents_settlement():
    state = main_phase_game()
    topo = state.derived.topo
    path = row_top(state, 0)[:4]  # 41, 34, 42, 35
    state = settle(state, 0, path[0])
    state = lay_road(state, 0, path[:3])  # reaches 42
    state = settle(state, 1, path[2])  # an opponent builds at the end of the road
    state = give(state, 0, lumber=3, brick=3)
    beyond = {e for e in topo.vertex_edges[path[2]] if state.edge_owner[e] == -1}
    assert beyond
    assert not beyond & road_edges(state)
    for e in beyond:
        assert_refused(state, 0, {"type": "build_road", "edge": e})
    # The player's own settlement does not block.
    state2 = main_phase_game()
    state2 = settle(state2, 0, path[0])
    state2 = lay_road(state2, 0, path[:3])
    state2 = settle(state2, 0, path[2])
    state2 = give(state2, 0, lumber=3, brick=3)
    assert {e for e in topo.vertex_edges[path[2]] if state2.edge_owner[e] == -1} <= road_edges(state2)


def test_settlement_on_a_free_vertex_reached_by_your_road():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = lay_road(state, 0, [43, 51, 58])
    state = settle(state, 1, 60)
    state = lay_road(state, 1, [60, 53, 61])  # an opponent's road
    state = give(state, 0, lumber=2, brick=2, wool=2, grain=2)
    assert settlement_spots(state) == {58}
    assert_refused(state, 0, {"type": "build_settlement", "vertex": 61})  # an opponent's road does not count
    assert_refused(state, 0, {"type": "build_settlement", "vertex": 84})  # a vertex reached by no road


def test_distance_rule_forbids_adjacent_settlement():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = lay_road(state, 0, [43, 51, 58, 65])
    state = give(state, 0, lumber=2, brick=2, wool=2, grain=2)
    # 51 is next to the settlement at 43; 58 is two steps away; 65 is next to an opponent's building at 72.
    state = settle(state, 1, 72)
    assert settlement_spots(state) == {58}
    assert_refused(state, 0, {"type": "build_settlement", "vertex": 51})
    assert_refused(state, 0, {"type": "build_settlement", "vertex": 65})
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 58})
    for v, owner in enumerate(state.vertex_owner):
        if owner >= 0:
            assert all(state.vertex_owner[n] == -1 for n in state.derived.topo.vertex_neighbors[v])


def test_distance_rule_applies_to_cities_as_well():
    state = main_phase_game()
    state = settle(state, 1, 43, city=True)
    state = settle(state, 0, 58)
    state = lay_road(state, 0, [58, 51, 43])
    state = give(state, 0, lumber=1, brick=1, wool=1, grain=1)
    assert settlement_spots(state) == set()
    assert_refused(state, 0, {"type": "build_settlement", "vertex": 51})
    assert placement.distance_rule_ok(state, 51) is False


def test_city_replaces_your_settlement_which_returns_to_the_supply():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = settle(state, 1, 58)
    state = give(state, 0, grain=4, ore=6)
    assert state.supply[0] == {"roads": 15, "settlements": 4, "cities": 4, "ships": 15}
    assert {a["vertex"] for a in actions_of(state, 0, "build_city")} == {43}
    assert_refused(state, 0, {"type": "build_city", "vertex": 58})  # not on an opponent's settlement
    assert_refused(state, 0, {"type": "build_city", "vertex": 24})  # not on an empty vertex
    assert rules.victory_points(state, 0) == 1
    rules.apply(state, 0, {"type": "build_city", "vertex": 43})
    assert state.vertex_city[43] and state.vertex_owner[43] == 0
    assert state.supply[0] == {"roads": 15, "settlements": 5, "cities": 3, "ships": 15}
    assert rules.victory_points(state, 0) == 2
    assert actions_of(state, 0, "build_city") == [], "a city cannot be upgraded again"
    assert_refused(state, 0, {"type": "build_city", "vertex": 43})
    pieces = rules.view(state, None)["pieces"]
    assert {"vertex": 43, "seat": 0} in pieces["cities"]
    assert {"vertex": 43, "seat": 0} not in pieces["settlements"]


def spread_vertices(state: rules.State, n: int) -> list[int]:
    """n land vertices obeying the distance rule among themselves."""
    chosen: list[int] = []
    for v in range(state.derived.topo.vertex_count):
        if state.derived.land_vertex[v] and placement.distance_rule_ok(state, v):
            if all(v not in state.derived.topo.vertex_neighbors[c] and v != c for c in chosen):
                chosen.append(v)
                if len(chosen) == n:
                    return chosen
    raise AssertionError("board too small")


def test_piece_limit_five_settlements_then_upgrade_one_first():
    state = settle(main_phase_game(), 0, 41)
    spots = [41, *spread_vertices(state, 4)]
    for v in spots[1:]:
        state = settle(state, 0, v)
    # A free spot on the seat's road, two steps from everything.
    road = [41, 34, 42]
    assert 42 not in spots and placement.distance_rule_ok(state, 42)
    state = lay_road(state, 0, road)
    state = give(state, 0, lumber=1, brick=1, wool=1, grain=3, ore=3)
    assert state.supply[0]["settlements"] == 0
    assert actions_of(state, 0, "build_settlement") == []
    assert_refused(state, 0, {"type": "build_settlement", "vertex": 42})
    rules.apply(state, 0, {"type": "build_city", "vertex": spots[0]})
    assert state.supply[0]["settlements"] == 1
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 42})
    assert sum(1 for o in state.vertex_owner if o == 0) == 6


def test_piece_limit_four_cities():
    state = main_phase_game()
    spots = spread_vertices(state, 5)
    for v in spots[:4]:
        state = settle(state, 0, v, city=True)
    state = settle(state, 0, spots[4])
    state = give(state, 0, grain=2, ore=3)
    assert state.supply[0]["cities"] == 0
    assert actions_of(state, 0, "build_city") == []
    assert_refused(state, 0, {"type": "build_city", "vertex": spots[4]})


def test_piece_limit_fifteen_roads():
    state = main_phase_game()
    state = settle(state, 0, 41)
    state = settle(state, 0, row_bottom(state, 0)[2])
    state = lay_road(state, 0, row_top(state, 0))  # 10 roads
    state = lay_road(state, 0, row_bottom(state, 0)[:6])  # 5 more: 15
    assert state.supply[0]["roads"] == 0
    state = give(state, 0, lumber=1, brick=1)
    assert actions_of(state, 0, "build_road") == []
    free = next(e for e in state.derived.topo.vertex_edges[41] if state.edge_owner[e] == -1)
    assert_refused(state, 0, {"type": "build_road", "edge": free})
