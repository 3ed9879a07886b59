"""One test per rule of RULES.md §3–§8 and §11, on constructed positions (base game)."""

from __future__ import annotations

import pytest

import rules
from rules.constants import DESERT, KNIGHT, MONOPOLY, ROAD_BUILDING, SEA, VICTORY_POINT, YEAR_OF_PLENTY

from .positions import (
    edges_of,
    free_vertex_on,
    give,
    hand,
    hex_at,
    land_path,
    main_phase,
    new_game,
    road,
    roll,
    settle,
    topo,
)


def legal_types(state, seat):
    return {a["type"] for a in rules.legal_actions(state, seat)}


def refuse(state, seat, action, code=None):
    before = rules.dump(state)
    with pytest.raises(rules.IllegalAction) as caught:
        rules.apply(state, seat, action)
    assert rules.dump(state) == before
    if code:
        assert caught.value.code == code
    return caught.value


# --- §3 start of the game ------------------------------------------------------------------------------


def test_setup_snake_order_round_one_in_seat_order_round_two_reversed():
    state = new_game()
    order = []
    while state.phase in ("setup_settlement", "setup_road"):
        seat = rules.to_move(state)[0]
        if state.phase == "setup_settlement":
            order.append(seat)
        rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]
    assert state.phase == "roll" and state.current == 0


def test_first_player_is_drawn_at_random_by_default():
    firsts = {rules.new_game(seed=s).first for s in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_setup_road_must_touch_the_settlement_just_placed():
    state = new_game()
    vertex = rules.legal_actions(state, 0)[5]["vertex"]
    rules.apply(state, 0, {"type": "build_settlement", "vertex": vertex})
    edges = {a["edge"] for a in rules.legal_actions(state, 0)}
    assert edges == set(topo(state).vertex_edges[vertex])
    far = next(e for e in range(topo(state).edge_count) if e not in edges and state.derived.road_edge[e])
    refuse(state, 0, {"type": "build_road", "edge": far}, "illegal_action")


def test_only_the_second_settlement_gives_starting_resources():
    state = new_game()
    for _ in range(4):
        seat = rules.to_move(state)[0]
        rules.apply(state, seat, rules.legal_actions(state, seat)[0])
        rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    assert all(sum(h) == 0 for h in state.hands)
    seat = rules.to_move(state)[0]
    vertex = next(
        a["vertex"]
        for a in rules.legal_actions(state, seat)
        if len([h for h in topo(state).vertex_hexes[a["vertex"]] if state.terrain[h] < 5]) == 3
    )
    events = rules.apply(state, seat, {"type": "build_settlement", "vertex": vertex})
    expected = {}
    for h in topo(state).vertex_hexes[vertex]:
        name = rules.constants.RESOURCES[state.terrain[h]]
        expected[name] = expected.get(name, 0) + 1
    assert hand(state, seat) == expected
    assert events[-1]["type"] == "starting_resources"


def test_no_trading_or_development_cards_during_setup():
    state = new_game()
    give(state, 0, wool=2, grain=2, ore=2)
    assert legal_types(state, 0) == {"build_settlement"}
    refuse(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}}, "not_now")
    refuse(state, 0, {"type": "buy_development"})
    refuse(state, 0, {"type": "trade_bank", "give": "wool", "get": "ore"})


def test_distance_rule_forbids_a_settlement_next_to_any_building():
    state = main_phase(new_game())
    centre = hex_at(state, 0, 0)
    v = topo(state).hex_vertices[centre][0]
    settle(state, 1, v)
    # Seat 0 with a road reaching a neighbour of the opponent's settlement may not build there.
    neighbour = topo(state).vertex_neighbors[v][0]
    path = land_path(state, neighbour, 2, avoid=frozenset({v}))
    settle(state, 0, path[-1])
    road(state, 0, *edges_of(state, path))
    give(state, 0, lumber=1, brick=1, wool=1, grain=1)
    spots = {a["vertex"] for a in rules.legal_actions(state, 0) if a["type"] == "build_settlement"}
    assert neighbour not in spots
    refuse(state, 0, {"type": "build_settlement", "vertex": neighbour}, "illegal_action")
    assert rules.placement.setup_settlement_vertices(state).count(neighbour) == 0


# --- §4 a turn -------------------------------------------------------------------------------------------


def producing_position():
    """Seat 0 has a settlement and seat 1 a city on the hex with token 5 nearest the top."""
    state = main_phase(new_game(), rolled=False)
    five = next(h for h, t in enumerate(state.tokens) if t == 5)
    settle(state, 0, free_vertex_on(state, five, 0))
    settle(state, 1, free_vertex_on(state, five, 0), city=True)
    return state, five


def test_production_settlement_takes_one_and_city_two():
    state, five = producing_position()
    resource = rules.constants.RESOURCES[state.terrain[five]]
    events = roll(state, 5)
    assert hand(state, 0).get(resource) == 1
    assert hand(state, 1).get(resource) == 2
    produced = next(e for e in events if e["type"] == "produced")
    assert produced["gains"]["0"][resource] == 1 and produced["gains"]["1"][resource] == 2


def test_the_robber_hex_produces_nothing():
    state, five = producing_position()
    state.robber = five
    roll(state, 5)
    assert sum(state.hands[0]) == 0 and sum(state.hands[1]) == 0


def test_bank_shortage_with_one_player_owed_gives_what_is_left():
    state = main_phase(new_game(), rolled=False)
    five = next(h for h, t in enumerate(state.tokens) if t == 5)
    settle(state, 0, free_vertex_on(state, five, 0), city=True)
    r = state.terrain[five]
    state.bank[r] = 1
    state.hands[2][r] = 18
    roll(state, 5)
    assert state.hands[0][r] == 1 and state.bank[r] == 0


def test_bank_shortage_with_two_players_owed_gives_nobody_anything():
    state, five = producing_position()
    r = state.terrain[five]
    state.bank[r] = 2
    state.hands[2][r] = 17
    roll(state, 5)
    assert state.hands[0][r] == 0 and state.hands[1][r] == 0 and state.bank[r] == 2


def test_a_seven_produces_nothing_and_a_hand_of_nine_discards_four():
    state, _ = producing_position()
    give(state, 1, lumber=3, brick=3, ore=3)
    give(state, 2, wool=5)
    events = roll(state, 7)
    assert state.phase == "discard"
    assert rules.to_move(state) == [1]
    assert {"type": "must_discard", "counts": {"1": 4}} in events
    refuse(state, 1, {"type": "discard", "cards": {"lumber": 3, "ore": 2}}, "bad_discard_count")
    refuse(state, 1, {"type": "discard", "cards": {"wool": 1}}, "cannot_afford")
    rules.apply(state, 1, {"type": "discard", "cards": {"lumber": 3}})
    assert state.phase == "discard" and rules.to_move(state) == [1]
    rules.apply(state, 1, {"type": "discard", "cards": {"ore": 1}})
    assert sum(state.hands[1]) == 5
    assert state.phase == "robber"


def test_discards_are_simultaneous_and_the_robber_waits_for_all():
    state, _ = producing_position()
    give(state, 1, lumber=8)
    give(state, 2, ore=10)
    roll(state, 7)
    assert rules.to_move(state) == [1, 2]
    assert {a["type"] for a in rules.legal_actions(state, 0)} == set()
    rules.apply(state, 2, {"type": "discard", "cards": {"ore": 5}})
    assert rules.to_move(state) == [1] and state.phase == "discard"
    rules.apply(state, 1, {"type": "discard", "cards": {"lumber": 4}})
    assert state.phase == "robber" and rules.to_move(state) == [0]


def test_the_robber_moves_to_another_land_hex_never_the_sea():
    state, five = producing_position()
    roll(state, 7)
    targets = {a["hex"] for a in rules.legal_actions(state, 0)}
    assert state.robber not in targets
    assert all(state.terrain[h] != SEA for h in targets)
    assert len(targets) == 18
    sea = state.terrain.index(SEA)
    refuse(state, 0, {"type": "move_robber", "hex": sea}, "illegal_action")


def test_steal_from_a_chosen_victim_with_a_building_and_cards():
    state, five = producing_position()
    give(state, 1, wool=1)
    roll(state, 7)
    options = [a for a in rules.legal_actions(state, 0) if a["hex"] == five]
    assert options == [{"type": "move_robber", "hex": five, "victim": 1}]  # seat 0 is not its own victim
    events = rules.apply(state, 0, options[0])
    assert hand(state, 0) == {"wool": 1} and sum(state.hands[1]) == 0
    private = [e for e in events if e["type"] == "stolen_card"]
    assert private[0]["audience"] == [0, 1]
    assert rules.events_for(events, 2) == [e for e in events if "audience" not in e]


def test_no_victim_is_offered_without_cards():
    state, five = producing_position()
    roll(state, 7)
    assert [a for a in rules.legal_actions(state, 0) if a["hex"] == five] == [{"type": "move_robber", "hex": five}]


def test_friendly_robber_spares_players_with_two_or_fewer_points():
    state, five = producing_position()
    state.options["friendly_robber"] = True
    give(state, 1, wool=1)
    state.version += 1
    roll(state, 7)
    # Seat 1 has a city: 2 public points, so it is spared.
    assert [a for a in rules.legal_actions(state, 0) if a["hex"] == five] == [{"type": "move_robber", "hex": five}]


# --- §4 development-card timing ------------------------------------------------------------------------


def test_a_card_bought_this_turn_cannot_be_played():
    state = main_phase(new_game())
    state.deck.append(KNIGHT)
    give(state, 0, wool=1, grain=1, ore=1)
    rules.apply(state, 0, {"type": "buy_development"})
    assert state.development_new[0][KNIGHT] == 1
    refuse(state, 0, {"type": "play_knight"}, "illegal_action")
    rules.apply(state, 0, {"type": "end_turn"})
    assert state.development[0][KNIGHT] == 1


def test_only_one_development_card_per_turn():
    state = main_phase(new_game(), rolled=False)
    state.development[0][KNIGHT] = 2
    state.version += 1
    rules.apply(state, 0, {"type": "play_knight"})
    assert state.phase == "robber"
    rules.apply(state, 0, rules.legal_actions(state, 0)[0])
    assert state.phase == "roll"  # a knight before the roll returns to the roll
    refuse(state, 0, {"type": "play_knight"}, "illegal_action")


def test_no_development_card_once_the_deck_is_empty():
    state = main_phase(new_game())
    state.deck.clear()
    give(state, 0, wool=1, grain=1, ore=1)
    assert "buy_development" not in legal_types(state, 0)
    refuse(state, 0, {"type": "buy_development"}, "illegal_action")


# --- §5 trading ------------------------------------------------------------------------------------------


def test_domestic_trade_offer_accept_and_confirm_with_one_accepter():
    state = main_phase(new_game())
    give(state, 0, wool=2)
    give(state, 1, ore=1)
    give(state, 2, ore=1)
    rules.apply(state, 0, {"type": "offer_trade", "give": {"wool": 2}, "get": {"ore": 1}})
    assert rules.to_move(state) == [1, 2, 3]
    assert legal_types(state, 3) == {"reject_trade"}  # seat 3 has no ore
    rules.apply(state, 1, {"type": "accept_trade"})
    rules.apply(state, 2, {"type": "accept_trade"})
    rules.apply(state, 3, {"type": "reject_trade"})
    assert rules.to_move(state) == [0]
    assert {a.get("seat") for a in rules.legal_actions(state, 0) if a["type"] == "confirm_trade"} == {1, 2}
    rules.apply(state, 0, {"type": "confirm_trade", "seat": 2})
    assert hand(state, 0) == {"ore": 1} and hand(state, 2) == {"wool": 2} and hand(state, 1) == {"ore": 1}
    assert state.trade is None


def test_domestic_trade_to_some_players_and_a_counter_offer():
    state = main_phase(new_game())
    give(state, 0, wool=2, brick=1)
    give(state, 3, ore=2)
    rules.apply(state, 0, {"type": "offer_trade", "give": {"wool": 2}, "get": {"ore": 1}, "to": [3]})
    assert rules.to_move(state) == [3]
    assert rules.legal_actions(state, 1) == []
    refuse(state, 1, {"type": "accept_trade"})
    rules.apply(state, 3, {"type": "counter_trade", "give": {"brick": 1}, "get": {"ore": 2}})
    rules.apply(state, 0, {"type": "confirm_trade", "seat": 3})
    assert hand(state, 0) == {"wool": 2, "ore": 2} and hand(state, 3) == {"brick": 1}


def test_trade_terms_both_sides_give_and_no_resource_on_both_sides():
    state = main_phase(new_game())
    give(state, 0, wool=2)
    refuse(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {}}, "empty_trade")
    both = {"type": "offer_trade", "give": {"wool": 1}, "get": {"wool": 1, "ore": 1}}
    refuse(state, 0, both, "same_resource_both_sides")
    refuse(state, 0, {"type": "offer_trade", "give": {"wool": 3}, "get": {"ore": 1}}, "cannot_afford")
    refuse(state, 0, {"type": "offer_trade", "give": {"gold": 1}, "get": {"ore": 1}}, "malformed")
    refuse(state, 0, {"type": "offer_trade", "give": {"wool": -1}, "get": {"ore": 1}}, "malformed")
    refuse(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": [0]}, "malformed")


def test_only_the_active_player_trades():
    state = main_phase(new_game())
    give(state, 1, wool=1)
    refuse(state, 1, {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}}, "not_now")


def test_an_offer_lapses_when_the_turn_ends():
    state = main_phase(new_game())
    give(state, 0, wool=1)
    rules.apply(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}})
    for seat in (1, 2, 3):
        rules.apply(state, seat, {"type": "reject_trade"})
    assert "end_turn" not in legal_types(state, 0)  # first withdraw or conclude
    rules.apply(state, 0, {"type": "cancel_trade"})
    rules.apply(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}})
    state.trade["replies"] = {1: "reject", 2: "reject", 3: "reject"}
    rules.apply(state, 0, {"type": "cancel_trade"})
    rules.apply(state, 0, {"type": "end_turn"})
    assert state.trade is None


def harbour_vertex(state, kind):
    for edge, k in state.harbours:
        if k == kind:
            return topo(state).edge_vertices[edge][0]
    raise AssertionError(kind)


def test_maritime_trade_four_to_one_without_a_harbour():
    state = main_phase(new_game())
    give(state, 0, wool=4)
    trades = [a for a in rules.legal_actions(state, 0) if a["type"] == "trade_bank"]
    assert {a["get"] for a in trades} == {"lumber", "brick", "grain", "ore"}
    rules.apply(state, 0, {"type": "trade_bank", "give": "wool", "get": "ore"})
    assert hand(state, 0) == {"ore": 1}


def test_three_to_one_and_two_to_one_only_with_a_building_on_the_harbour():
    state = main_phase(new_game())
    give(state, 0, wool=3, lumber=2)
    assert "trade_bank" not in legal_types(state, 0)
    settle(state, 0, harbour_vertex(state, 5))
    assert state.harbour_rates(0) == [3, 3, 3, 3, 3]
    rules.apply(state, 0, {"type": "trade_bank", "give": "wool", "get": "ore"})
    settle(state, 0, harbour_vertex(state, 0))  # the lumber 2:1 harbour
    assert state.harbour_rates(0)[0] == 2
    rules.apply(state, 0, {"type": "trade_bank", "give": "lumber", "get": "grain"})
    assert hand(state, 0) == {"ore": 1, "grain": 1}


def test_a_maritime_trade_never_takes_a_card_the_bank_lacks():
    state = main_phase(new_game())
    give(state, 0, wool=4)
    state.hands[1][4] += state.bank[4]
    state.bank[4] = 0
    state.version += 1
    assert all(a["get"] != "ore" for a in rules.legal_actions(state, 0) if a["type"] == "trade_bank")
    refuse(state, 0, {"type": "trade_bank", "give": "wool", "get": "ore"})


# --- §6 building -----------------------------------------------------------------------------------------


def test_building_pays_the_cost_to_the_bank():
    state = main_phase(new_game())
    start = land_path(state, topo(state).hex_vertices[hex_at(state, 0, 0)][0], 2)
    settle(state, 0, start[0])
    give(state, 0, lumber=3, brick=3, wool=1, grain=3, ore=3)
    bank = list(state.bank)
    rules.apply(state, 0, {"type": "build_road", "edge": edges_of(state, start)[0]})
    rules.apply(state, 0, {"type": "build_road", "edge": edges_of(state, start)[1]})
    rules.apply(state, 0, {"type": "build_settlement", "vertex": start[2]})
    rules.apply(state, 0, {"type": "build_city", "vertex": start[0]})
    assert sum(state.hands[0]) == 0
    assert state.bank == [bank[0] + 3, bank[1] + 3, bank[2] + 1, bank[3] + 3, bank[4] + 3]
    assert state.vertex_city[start[0]] and state.supply[0]["settlements"] == 4 and state.supply[0]["cities"] == 3


def test_piece_limits_five_settlements_then_upgrade_first():
    state = main_phase(new_game())
    state.supply[0]["settlements"] = 0
    start = topo(state).hex_vertices[hex_at(state, 0, 0)][0]
    settle(state, 0, start)
    state.supply[0]["settlements"] = 0
    path = land_path(state, start, 2)
    road(state, 0, *edges_of(state, path))
    give(state, 0, lumber=1, brick=1, wool=1, grain=1)
    assert "build_settlement" not in legal_types(state, 0)
    state.supply[0]["roads"] = 0
    state.version += 1
    assert "build_road" not in legal_types(state, 0)


def test_a_road_cannot_continue_through_an_opponents_settlement():
    state = main_phase(new_game())
    path = land_path(state, topo(state).hex_vertices[hex_at(state, 0, 0)][0], 3)
    settle(state, 0, path[0])
    road(state, 0, *edges_of(state, path[:3]))
    settle(state, 1, path[2])
    give(state, 0, lumber=1, brick=1)
    spots = {a["edge"] for a in rules.legal_actions(state, 0) if a["type"] == "build_road"}
    beyond = set(topo(state).vertex_edges[path[2]]) - set(edges_of(state, path[:3]))
    assert not spots & beyond


def test_a_city_replaces_a_settlement_which_returns_to_the_supply():
    state = main_phase(new_game())
    v = topo(state).hex_vertices[hex_at(state, 0, 0)][0]
    settle(state, 0, v)
    state.supply[0]["settlements"] = 4
    give(state, 0, grain=2, ore=3)
    rules.apply(state, 0, {"type": "build_city", "vertex": v})
    assert state.supply[0]["settlements"] == 5 and state.supply[0]["cities"] == 3
    assert rules.victory_points(state, 0) == 2


# --- §7 development cards --------------------------------------------------------------------------------


def test_knight_moves_the_robber_steals_and_stays_face_up():
    state, five = producing_position()
    state.phase = "main"
    state.development[0][KNIGHT] = 1
    give(state, 1, brick=1)
    rules.apply(state, 0, {"type": "play_knight"})
    rules.apply(state, 0, {"type": "move_robber", "hex": five, "victim": 1})
    assert hand(state, 0) == {"brick": 1}
    assert state.development_used[0][KNIGHT] == 1 and state.phase == "main"


def test_largest_army_first_to_three_then_strictly_more():
    state = main_phase(new_game())
    state.development_used[1][KNIGHT] = 3
    state.largest_army = 1
    state.development[0][KNIGHT] = 1
    state.development_used[0][KNIGHT] = 2
    state.version += 1
    rules.apply(state, 0, {"type": "play_knight"})
    assert state.largest_army == 1  # 3 does not beat 3
    state.development_played = False
    state.development[0][KNIGHT] = 1
    state.phase = "main"
    state.version += 1
    events = rules.apply(state, 0, {"type": "play_knight"})
    assert state.largest_army == 0 and {"type": "largest_army", "seat": 0, "knights": 4} in events


def test_road_building_places_two_free_roads():
    state = main_phase(new_game())
    v = topo(state).hex_vertices[hex_at(state, 0, 0)][0]
    settle(state, 0, v)
    state.development[0][ROAD_BUILDING] = 1
    state.version += 1
    rules.apply(state, 0, {"type": "play_road_building"})
    for _ in range(2):
        assert state.phase == "road_building"
        rules.apply(state, 0, rules.legal_actions(state, 0)[0])
    assert state.phase == "main" and state.supply[0]["roads"] == 13 and sum(state.hands[0]) == 0


def test_road_building_places_one_road_when_only_one_is_possible():
    state = main_phase(new_game())
    v = topo(state).hex_vertices[hex_at(state, 0, 0)][0]
    settle(state, 0, v)
    state.supply[0]["roads"] = 1
    state.development[0][ROAD_BUILDING] = 1
    state.version += 1
    rules.apply(state, 0, {"type": "play_road_building"})
    rules.apply(state, 0, rules.legal_actions(state, 0)[0])
    assert state.phase == "main" and state.supply[0]["roads"] == 0


def test_year_of_plenty_takes_two_limited_by_the_bank():
    state = main_phase(new_game())
    state.development[0][YEAR_OF_PLENTY] = 1
    for r in range(5):
        state.hands[1][r] += state.bank[r]
        state.bank[r] = 0
    state.hands[1][2] -= 1
    state.bank[2] = 1
    state.version += 1
    options = [a for a in rules.legal_actions(state, 0) if a["type"] == "play_year_of_plenty"]
    assert options == [{"type": "play_year_of_plenty", "resources": ["wool"]}]
    refuse(state, 0, {"type": "play_year_of_plenty", "resources": ["wool", "wool"]})
    rules.apply(state, 0, options[0])
    assert hand(state, 0) == {"wool": 1}


def test_year_of_plenty_with_a_full_bank_takes_any_two():
    state = main_phase(new_game())
    state.development[0][YEAR_OF_PLENTY] = 1
    state.version += 1
    options = [a for a in rules.legal_actions(state, 0) if a["type"] == "play_year_of_plenty"]
    assert len(options) == 15
    rules.apply(state, 0, {"type": "play_year_of_plenty", "resources": ["ore", "ore"]})
    assert hand(state, 0) == {"ore": 2}


def test_monopoly_takes_every_card_of_the_named_resource():
    state = main_phase(new_game())
    state.development[0][MONOPOLY] = 1
    give(state, 1, ore=3, wool=1)
    give(state, 3, ore=2)
    state.version += 1
    events = rules.apply(state, 0, {"type": "play_monopoly", "resource": "ore"})
    assert hand(state, 0) == {"ore": 5} and hand(state, 1) == {"wool": 1} and hand(state, 3) == {}
    assert events[0]["taken"] == {"1": 3, "3": 2}


def test_a_victory_point_card_wins_at_once_on_ones_own_turn():
    state = main_phase(new_game())
    for v in land_path(state, topo(state).hex_vertices[hex_at(state, 0, 0)][0], 8)[::2][:4]:
        settle(state, 0, v, city=True)
    state.development[0][VICTORY_POINT] = 1
    assert rules.victory_points(state, 0) == 9
    state.deck.append(VICTORY_POINT)
    give(state, 0, wool=1, grain=1, ore=1)
    events = rules.apply(state, 0, {"type": "buy_development"})
    assert state.winner == 0 and state.phase == "game_over" and rules.to_move(state) == []
    assert events[-1]["type"] == "game_won"
    assert rules.view(state, None)["seats"][0]["victory_point_cards"] == 2


# --- §8 Longest Road, Largest Army, victory -----------------------------------------------------------------


def long_road(state, seat, length, start=None, avoid=frozenset()):
    start = start if start is not None else topo(state).hex_vertices[hex_at(state, 0, 0)][0]
    path = land_path(state, start, length, avoid=avoid)
    settle(state, seat, path[0])
    road(state, seat, *edges_of(state, path))
    rules.longest_road.award_after_growth(state, seat)
    return path


def test_the_first_road_of_five_takes_longest_road():
    state = main_phase(new_game())
    path = land_path(state, topo(state).hex_vertices[hex_at(state, 0, 0)][0], 5)
    settle(state, 0, path[0])
    road(state, 0, *edges_of(state, path)[:4])
    give(state, 0, lumber=1, brick=1)
    rules.apply(state, 0, {"type": "build_road", "edge": edges_of(state, path)[4]})
    assert state.longest_road == 0 and state.road_length[0] == 5
    assert rules.victory_points(state, 0) == 3


def test_another_player_must_exceed_the_holder():
    state = main_phase(new_game())
    first = long_road(state, 0, 5)
    assert state.longest_road == 0
    second = long_road(state, 1, 5, start=topo(state).hex_vertices[hex_at(state, 0, 2)][3], avoid=frozenset(first))
    assert state.road_length[1] == 5 and state.longest_road == 0
    extra = land_path(state, second[-1], 1, avoid=frozenset(first) | frozenset(second))
    road(state, 1, *edges_of(state, extra))
    rules.longest_road.award_after_growth(state, 1)
    assert state.road_length[1] == 6 and state.longest_road == 1


def test_a_loop_counts_every_edge():
    state = main_phase(new_game())
    ring = list(topo(state).hex_vertices[hex_at(state, 0, 0)])
    settle(state, 0, ring[0])
    road(state, 0, *edges_of(state, [*ring, ring[0]]))
    assert rules.longest_road.trail_length(state, 0) == 6


def test_a_branch_does_not_add_to_the_length():
    state = main_phase(new_game())
    path = long_road(state, 0, 4)
    side = next(
        n for n in topo(state).vertex_neighbors[path[2]] if n not in path and state.derived.land_vertex[n]
    )
    road(state, 0, *edges_of(state, [path[2], side]))
    assert rules.longest_road.trail_length(state, 0) == 4


def test_an_opponents_settlement_cuts_the_road():
    state = main_phase(new_game())
    path = long_road(state, 0, 6)
    assert state.road_length[0] == 6
    settle(state, 1, path[3])
    assert rules.longest_road.trail_length(state, 0) == 3


def broken_holder_position():
    """Seat 0 holds Longest Road with 7; seat 1 will cut it in the middle with a settlement."""
    state = main_phase(new_game(), seat=1)
    path = long_road(state, 0, 7)
    assert state.longest_road == 0
    # Seat 1 reaches path[3] with a road and may build there (distance rule: path[2], path[4] are free).
    approach = next(n for n in topo(state).vertex_neighbors[path[3]] if n not in path)
    road(state, 1, *edges_of(state, [approach, path[3]]))
    give(state, 1, lumber=1, brick=1, wool=1, grain=1)
    return state, path


def test_broken_road_one_player_alone_longest_takes_the_card():
    state, path = broken_holder_position()
    other = long_road(state, 2, 5, start=topo(state).hex_vertices[hex_at(state, 2, -2)][0], avoid=frozenset(path))
    assert state.road_length[2] == 5 and state.longest_road == 0
    rules.apply(state, 1, {"type": "build_settlement", "vertex": path[3]})
    assert state.road_length[0] == 4 and state.longest_road == 2  # 7 cut into 3 and 4
    assert len(other) == 6


def test_broken_road_holder_tied_for_longest_keeps_the_card():
    state, path = broken_holder_position()
    # After the cut at path[3], seat 0 keeps a trail of 4 on the other side only if extended: extend first.
    extension = land_path(state, path[-1], 2, avoid=frozenset(path))
    road(state, 0, *edges_of(state, extension))
    rules.longest_road.award_after_growth(state, 0)  # 9 long now; the cut leaves 3 and 6
    long_road(state, 2, 6, start=topo(state).hex_vertices[hex_at(state, -2, 2)][0], avoid=frozenset(path + extension))
    assert state.road_length[2] == 6
    rules.apply(state, 1, {"type": "build_settlement", "vertex": path[3]})
    assert state.road_length[0] == 6 and state.longest_road == 0


def test_broken_road_others_tied_or_nobody_at_five_sets_the_card_aside():
    state, path = broken_holder_position()
    rules.apply(state, 1, {"type": "build_settlement", "vertex": path[3]})
    assert state.road_length[0] == 4 and state.longest_road == -1
    assert rules.victory_points(state, 0) == 1


def test_broken_road_two_others_tied_sets_the_card_aside():
    state, path = broken_holder_position()
    long_road(state, 2, 5, start=topo(state).hex_vertices[hex_at(state, 2, -2)][0], avoid=frozenset(path))
    long_road(state, 3, 5, start=topo(state).hex_vertices[hex_at(state, -2, 2)][3], avoid=frozenset(path))
    assert state.road_length[2] == state.road_length[3] == 5
    rules.apply(state, 1, {"type": "build_settlement", "vertex": path[3]})
    assert state.longest_road == -1


def test_a_win_happens_only_on_ones_own_turn():
    state, path = broken_holder_position()
    # Seat 2 has 8 points and a road of 5 that will become the longest when seat 1 cuts seat 0's road.
    long_road(state, 2, 5, start=topo(state).hex_vertices[hex_at(state, 2, -2)][0], avoid=frozenset(path))
    for v in (topo(state).hex_vertices[hex_at(state, -2, 2)][0], topo(state).hex_vertices[hex_at(state, 0, 2)][3]):
        settle(state, 2, v, city=True)
    state.development[2][VICTORY_POINT] = 3
    assert rules.victory_points(state, 2) == 8
    rules.apply(state, 1, {"type": "build_settlement", "vertex": path[3]})
    assert state.longest_road == 2 and rules.victory_points(state, 2) == 10
    assert state.winner is None  # not seat 2's turn
    rules.apply(state, 1, {"type": "end_turn"})
    assert state.current == 2 and state.winner == 2 and state.phase == "game_over"


# --- §11 options, and the engine's promises ------------------------------------------------------------


def test_vp_target_option():
    state = rules.new_game(seed=1, options={"vp_target": 5})
    assert state.vp_target == 5
    with pytest.raises(rules.IllegalAction):
        rules.new_game(seed=1, options={"vp_target": 99})


def test_random_tokens_never_put_red_numbers_side_by_side():
    for seed in range(30):
        state = rules.new_game(seed=seed, options={"random_tokens": True})
        for h, token in enumerate(state.tokens):
            if token in (6, 8):
                assert all(state.tokens[n] not in (6, 8) for n in topo(state).hex_neighbors[h])


def test_variable_board_counts_and_spiral_tokens():
    state = rules.new_game(seed=3)
    land = [t for t in state.terrain if t != SEA]
    assert sorted(land) == sorted([0] * 4 + [1] * 3 + [2] * 4 + [3] * 4 + [4] * 3 + [DESERT])
    assert sorted(t for t in state.tokens if t) == sorted(rules.constants.SPIRAL_TOKENS)
    assert state.tokens[state.terrain.index(DESERT)] == 0
    assert state.robber == state.terrain.index(DESERT)
    assert sorted(k for _, k in state.harbours) == [0, 1, 2, 3, 4, 5, 5, 5, 5]


def test_beginner_board_is_fixed():
    a, b = rules.new_game(seed=1, options={"board": "beginner"}), rules.new_game(seed=2, options={"board": "beginner"})
    assert a.terrain == b.terrain and a.tokens == b.tokens and a.harbours == b.harbours


def test_seat_order_fixed_starts_with_seat_zero():
    assert all(rules.new_game(seed=s, options={"seat_order": "fixed"}).first == 0 for s in range(10))


def test_bad_input_raises_and_changes_nothing():
    state = new_game()
    for seat, action in (
        (1, rules.legal_actions(state, 0)[0]),
        (0, {"type": "roll"}),
        (0, {"type": "fly"}),
        (0, {"type": "build_settlement", "vertex": 10_000}),
        (0, {"type": "build_settlement"}),
        (0, ["build_settlement"]),
        (0, None),
        (9, {"type": "roll"}),
    ):
        refuse(state, seat, action)


def test_views_show_own_cards_only():
    state = main_phase(new_game())
    give(state, 1, ore=2)
    state.development[1][KNIGHT] = 1
    mine, theirs, spectator = rules.view(state, 1), rules.view(state, 0), rules.view(state, None)
    assert mine["seats"][1]["resources"]["ore"] == 2 and mine["seats"][1]["development"]["knight"] == 1
    assert "resources" not in theirs["seats"][1] and theirs["seats"][1]["resource_count"] == 2
    assert theirs["seats"][1]["development_count"] == 1 and "development" not in theirs["seats"][1]
    assert all("resources" not in s for s in spectator["seats"])
    for view in (mine, theirs, spectator):
        assert "deck" not in view and "seed" not in view and "stream" not in view


def test_same_seed_and_log_give_the_same_dump():
    def play():
        state = rules.new_game(seed=99)
        for _ in range(300):
            seat = rules.to_move(state)[0]
            rules.apply(state, seat, rules.legal_actions(state, seat)[-1])
        return rules.dump(state)

    assert play() == play()
