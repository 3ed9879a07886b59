"""RULES.md §4: a turn — development card before the roll, production, the bank shortage, a 7 (discards,
robber, steal), trading and building after the roll, ending the turn."""

from __future__ import annotations

import rules
from rules.state import DISCARD, MAIN, ROBBER, ROLL

from .rule_positions import (
    actions_of,
    assert_refused,
    counts,
    edge_between,
    edit,
    edit_seat,
    force_roll,
    give,
    hex_id,
    kinds,
    main_phase_game,
    roll_phase_game,
    settle,
    total_cards,
)

# Beginner board: the two 6s are hills (0, -1) and fields (-1, 2).
HILLS_6 = (0, -1)
FIELDS_6 = (-1, 2)
HILLS_6_TOP = 22  # corner 0 of (0, -1); also touches mountains 10 and pasture 2
FIELDS_6_BOTTOM = 84  # corner 3 of (-1, 2), on the coast
FIELDS_6_TOP = 66  # corner 0 of (-1, 2); also touches (-1, 1) mountains 3 and (0, 1) fields 4


def roll(state: rules.State, total: int) -> list[dict]:
    force_roll(state, total)
    events = rules.apply(state, state.current, {"type": "roll"})
    assert state.dice is not None and sum(state.dice) == total
    return events


def test_a_development_card_may_be_played_before_rolling():
    state = roll_phase_game()
    state = edit_seat(state, 0, development={"knight": 1})
    assert kinds(state, 0) == {"roll", "play_knight"}
    rules.apply(state, 0, {"type": "play_knight"})
    assert state.phase == ROBBER
    move = actions_of(state, 0, "move_robber")[0]
    rules.apply(state, 0, move)
    assert state.phase == ROLL, "after the knight the player still has to roll"
    roll(state, 5)
    assert state.phase == MAIN


def test_nothing_but_a_roll_or_a_development_card_before_rolling():
    state = roll_phase_game()
    state = settle(state, 0, 43)
    state = give(state, 0, lumber=5, brick=5, wool=5, grain=5, ore=5)
    assert kinds(state, 0) == {"roll"}
    for action in (
        {"type": "build_road", "edge": state.derived.topo.vertex_edges[43][0]},
        {"type": "build_city", "vertex": 43},
        {"type": "buy_development"},
        {"type": "trade_bank", "give": "lumber", "get": "ore"},
        {"type": "offer_trade", "give": {"lumber": 1}, "get": {"ore": 1}},
        {"type": "end_turn"},
    ):
        assert_refused(state, 0, action)


def test_production_settlement_takes_one_and_city_two():
    state = roll_phase_game()
    state = settle(state, 0, HILLS_6_TOP)
    state = settle(state, 1, FIELDS_6_BOTTOM, city=True)
    state = settle(state, 2, 49)  # a vertex on no 6 hex: takes nothing
    events = roll(state, 6)
    assert state.hands[0] == counts(brick=1)
    assert state.hands[1] == counts(grain=2)
    assert state.hands[2] == [0] * 5
    produced = next(e for e in events if e["type"] == "produced")
    assert produced["gains"] == {"0": {"brick": 1}, "1": {"grain": 2}}
    assert state.bank == [19, 18, 19, 17, 19]


def test_production_from_every_hex_with_the_number():
    state = roll_phase_game()
    # Vertex 66 touches fields 6 only among the 6s; a city on it and a settlement on the hills 6.
    state = settle(state, 0, FIELDS_6_TOP, city=True)
    state = settle(state, 0, HILLS_6_TOP)
    roll(state, 6)
    assert state.hands[0] == counts(brick=1, grain=2)


def test_the_robber_hex_produces_nothing():
    state = roll_phase_game()
    state = settle(state, 0, HILLS_6_TOP)
    state = settle(state, 1, FIELDS_6_BOTTOM, city=True)
    state = edit(state, robber=hex_id(state, *HILLS_6))
    roll(state, 6)
    assert state.hands[0] == [0] * 5
    assert state.hands[1] == counts(grain=2)


def test_a_seven_produces_nothing():
    state = roll_phase_game()
    # Buildings on every corner of three hexes, and nobody holds more than 7 cards.
    state = settle(state, 0, HILLS_6_TOP, city=True)
    state = settle(state, 1, FIELDS_6_BOTTOM, city=True)
    state = settle(state, 2, 49)
    before = [list(h) for h in state.hands]
    events = roll(state, 7)
    assert [list(h) for h in state.hands] == before
    assert not any(e["type"] == "produced" for e in events)
    assert state.phase == ROBBER


def test_bank_shortage_with_one_player_owed_gives_what_is_left():
    state = roll_phase_game()
    state = settle(state, 1, FIELDS_6_BOTTOM, city=True)  # owed 2 grain
    state = settle(state, 0, HILLS_6_TOP)  # owed 1 brick: the bank has plenty
    state = give(state, 2, grain=18)  # one grain left in the bank (cards stay conserved)
    roll(state, 6)
    assert state.hands[1] == counts(grain=1)
    assert state.bank[3] == 0
    assert state.hands[0] == counts(brick=1)
    assert total_cards(state) == [19] * 5


def test_bank_shortage_with_two_players_owed_gives_nobody_that_resource():
    state = roll_phase_game()
    state = settle(state, 1, FIELDS_6_BOTTOM, city=True)  # owed 2 grain
    state = settle(state, 2, FIELDS_6_TOP)  # owed 1 grain
    state = settle(state, 0, HILLS_6_TOP)  # owed 1 brick
    state = give(state, 3, grain=17)
    roll(state, 6)
    assert state.hands[1] == [0] * 5
    assert state.hands[2] == [0] * 5
    assert state.bank[3] == 2, "nobody gets grain this roll"
    assert state.hands[0] == counts(brick=1), "other resources are still paid"


def test_no_shortage_when_the_bank_covers_exactly_what_is_owed():
    state = roll_phase_game()
    state = settle(state, 1, FIELDS_6_BOTTOM, city=True)
    state = settle(state, 2, FIELDS_6_TOP)
    state = give(state, 3, grain=16)
    roll(state, 6)
    assert state.hands[1][3] == 2 and state.hands[2][3] == 1
    assert state.bank[3] == 0


def test_discard_half_of_nine_is_four():
    state = roll_phase_game()
    state = give(state, 1, lumber=3, brick=2, wool=2, grain=1, ore=1)  # 9 cards
    roll(state, 7)
    assert state.phase == DISCARD
    assert state.discards_owed == [0, 4, 0, 0]
    assert rules.to_move(state) == [1]
    assert_refused(state, 1, {"type": "discard", "cards": {"lumber": 3, "brick": 2}}, "bad_discard_count")
    assert_refused(state, 1, {"type": "discard", "cards": {"ore": 2}}, "cannot_afford")
    rules.apply(state, 1, {"type": "discard", "cards": {"lumber": 3, "ore": 1}})
    assert sum(state.hands[1]) == 5
    assert state.hands[1] == counts(brick=2, wool=2, grain=1)
    assert state.bank[0] == 19 and state.bank[4] == 19
    assert state.phase == ROBBER


def test_seven_or_fewer_cards_discard_nothing():
    state = roll_phase_game()
    state = give(state, 1, lumber=7)
    state = give(state, 2, wool=8)  # 8 cards: discards 4
    roll(state, 7)
    assert state.discards_owed == [0, 0, 4, 0]


def test_discards_are_simultaneous_and_the_robber_waits_for_all():
    state = roll_phase_game()
    state = give(state, 0, ore=10)  # the active player too: 5
    state = give(state, 1, lumber=9)  # 4
    state = give(state, 2, grain=8)  # 4
    state = give(state, 3, wool=7)  # nothing
    roll(state, 7)
    assert state.phase == DISCARD
    assert rules.to_move(state) == [0, 1, 2]
    # Any of them may go first; a discard may come in several parts.
    rules.apply(state, 2, {"type": "discard", "cards": {"grain": 4}})
    assert rules.to_move(state) == [0, 1]
    rules.apply(state, 1, {"type": "discard", "cards": {"lumber": 1}})
    assert rules.to_move(state) == [0, 1]
    assert state.discards_owed == [5, 3, 0, 0]
    rules.apply(state, 0, {"type": "discard", "cards": {"ore": 5}})
    assert rules.to_move(state) == [1]
    assert state.phase == DISCARD
    assert_refused(state, 0, {"type": "move_robber", "hex": hex_id(state, *HILLS_6)})
    assert_refused(state, 3, {"type": "discard", "cards": {"wool": 1}})
    rules.apply(state, 1, {"type": "discard", "cards": {"lumber": 3}})
    assert state.phase == ROBBER
    assert rules.to_move(state) == [0]
    assert [sum(h) for h in state.hands] == [5, 5, 4, 7]


def test_robber_moves_to_a_different_land_hex_desert_allowed_sea_not():
    state = roll_phase_game()
    roll(state, 7)
    assert state.phase == ROBBER
    desert = state.robber
    land = {h for h, t in enumerate(state.terrain) if t != 6}
    sea = [h for h, t in enumerate(state.terrain) if t == 6]
    offered = {a["hex"] for a in actions_of(state, 0, "move_robber")}
    assert offered == land - {desert}
    assert_refused(state, 0, {"type": "move_robber", "hex": desert})
    assert_refused(state, 0, {"type": "move_robber", "hex": sea[0]})
    target = hex_id(state, *HILLS_6)
    rules.apply(state, 0, {"type": "move_robber", "hex": target})
    assert state.robber == target
    assert state.phase == MAIN
    # Next time, from the hills, the desert is a legal destination.
    state = edit(state, phase=ROBBER)
    offered = {a["hex"] for a in actions_of(state, 0, "move_robber")}
    assert desert in offered and target not in offered


def test_steal_from_a_chosen_victim_with_a_building_on_the_hex_and_cards():
    state = roll_phase_game()
    hills = hex_id(state, *HILLS_6)
    corners = state.derived.topo.hex_vertices[hills]  # 22, 29, 36, 43, 35, 28
    state = settle(state, 1, corners[0])
    state = settle(state, 2, corners[2])
    state = settle(state, 3, corners[4])  # no cards: not a victim
    state = settle(state, 0, 24)  # the thief's own building elsewhere
    state = give(state, 1, wool=2)
    state = give(state, 2, ore=1)
    roll(state, 7)
    moves = [a for a in actions_of(state, 0, "move_robber") if a["hex"] == hills]
    assert moves == [
        {"type": "move_robber", "hex": hills, "victim": 1},
        {"type": "move_robber", "hex": hills, "victim": 2},
    ]
    assert_refused(state, 0, {"type": "move_robber", "hex": hills})
    assert_refused(state, 0, {"type": "move_robber", "hex": hills, "victim": 3})
    assert_refused(state, 0, {"type": "move_robber", "hex": hills, "victim": 0})
    events = rules.apply(state, 0, {"type": "move_robber", "hex": hills, "victim": 2})
    assert state.hands[2] == [0] * 5
    assert state.hands[0] == counts(ore=1)
    assert state.hands[1] == counts(wool=2)
    public = rules.events_for(events, None)
    assert {"type": "stole", "seat": 0, "victim": 2} in public
    assert all("resource" not in e for e in public), "a spectator does not see which card was stolen"
    assert any(e.get("resource") == "ore" for e in rules.events_for(events, 2))


def test_no_victim_is_listed_when_they_have_no_cards():
    state = roll_phase_game()
    hills = hex_id(state, *HILLS_6)
    state = settle(state, 1, state.derived.topo.hex_vertices[hills][0])
    roll(state, 7)
    moves = [a for a in actions_of(state, 0, "move_robber") if a["hex"] == hills]
    assert moves == [{"type": "move_robber", "hex": hills}]
    rules.apply(state, 0, moves[0])
    assert state.robber == hills and state.phase == MAIN


def test_a_stolen_card_is_one_the_victim_held():
    for seed in range(12):
        state = roll_phase_game(seed=seed)
        hills = hex_id(state, *HILLS_6)
        state = settle(state, 1, state.derived.topo.hex_vertices[hills][0])
        state = give(state, 1, wool=1, ore=3)
        roll(state, 7)
        rules.apply(state, 0, {"type": "move_robber", "hex": hills, "victim": 1})
        assert sum(state.hands[0]) == 1 and sum(state.hands[1]) == 3
        taken = state.hands[0].index(1)
        assert taken in (2, 4)
        assert state.hands[1][taken] == (0 if taken == 2 else 2)


def test_after_rolling_trade_and_build_in_any_order():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = give(state, 0, lumber=7, brick=2, wool=1, grain=1)
    rules.apply(state, 0, {"type": "build_road", "edge": edge_between(state, 43, 51)})  # build
    rules.apply(state, 0, {"type": "trade_bank", "give": "lumber", "get": "brick"})  # trade
    rules.apply(state, 0, {"type": "build_road", "edge": edge_between(state, 51, 58)})  # build again
    assert {"type": "build_settlement", "vertex": 58} in rules.legal_actions(state, 0)
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 58})
    assert state.hands[0] == [0] * 5
    assert state.vertex_owner[58] == 0
    assert state.phase == MAIN


def test_the_player_ends_the_turn_and_play_passes_in_seat_order():
    state = main_phase_game(current=3)
    assert "end_turn" in kinds(state, 3)
    assert_refused(state, 0, {"type": "end_turn"}, "not_your_turn")
    events = rules.apply(state, 3, {"type": "end_turn"})
    assert events[0] == {"type": "turn_ended", "seat": 3, "next": 0}
    assert state.current == 0 and state.phase == ROLL and state.dice is None
    assert rules.to_move(state) == [0]


def test_the_seven_leaves_cards_conserved():
    state = roll_phase_game()
    state = give(state, 1, lumber=4, brick=5)
    roll(state, 7)
    rules.apply(state, 1, {"type": "discard", "cards": {"brick": 4}})
    assert total_cards(state) == [19] * 5
    assert state.bank[1] == 18
