"""RULES.md §8, victory: what scores, hidden Victory Point cards, and winning only during one's own turn."""

from __future__ import annotations

import rules
from rules.constants import KNIGHT, VICTORY_POINT
from rules.state import GAME_OVER, MAIN, ROLL

from .rule_positions import (
    actions_of,
    assert_refused,
    edge_between,
    edit_seat,
    force_roll,
    give,
    hold,
    lay_road,
    main_phase_game,
    on_top,
    row_bottom,
    row_top,
    settle,
)


def test_victory_points_one_per_settlement_two_per_city_two_per_special_card_one_per_vp_card():
    state = main_phase_game(current=1)  # seat 0 reaches 10: on its own turn it would have won
    state = settle(state, 0, 22)
    state = settle(state, 0, 84)
    state = settle(state, 0, 43, city=True)
    state = lay_road(state, 0, row_top(state, 0)[4:10])  # 5 roads from the city: Longest Road
    state = edit_seat(state, 0, development_used={"knight": 3})  # Largest Army
    state = hold(state, 0, VICTORY_POINT, VICTORY_POINT)
    assert state.longest_road == 0 and state.largest_army == 0
    assert rules.victory_points(state, 0) == 1 + 1 + 2 + 2 + 2 + 2
    assert rules.victory_points(state, 1) == 0
    public = rules.view(state, None)["seats"][0]
    assert public["public_victory_points"] == 8, "Victory Point cards stay hidden"
    assert "victory_points" not in public and "victory_point_cards" not in public
    own = rules.view(state, 0)["seats"][0]
    assert own["victory_points"] == 10 and own["victory_point_cards"] == 2


def test_a_win_is_the_moment_the_target_is_reached_on_ones_own_turn():
    state = main_phase_game()
    state = settle(state, 0, 22, city=True)
    state = settle(state, 0, 84, city=True)
    state = settle(state, 0, 43)
    state = hold(state, 0, VICTORY_POINT, VICTORY_POINT, VICTORY_POINT, VICTORY_POINT)
    assert rules.victory_points(state, 0) == 9
    state = give(state, 0, grain=2, ore=3)
    events = rules.apply(state, 0, {"type": "build_city", "vertex": 43})
    assert events[-1]["type"] == "game_won" and events[-1]["seat"] == 0
    assert state.winner == 0 and state.phase == GAME_OVER
    assert rules.to_move(state) == []
    assert all(rules.legal_actions(state, s) == [] for s in range(4))
    assert_refused(state, 0, {"type": "end_turn"}, "game_over")
    final = rules.view(state, 1)
    assert final["winner"] == 0
    assert final["seats"][0]["victory_points"] == 10, "hidden cards are revealed at the end"
    assert final["seats"][0]["victory_point_cards"] == 4


def test_a_victory_point_card_wins_at_once_when_bought_on_ones_own_turn():
    state = main_phase_game()
    for v in (22, 84, 43, 12):
        state = settle(state, 0, v, city=True)
    state = hold(state, 0, VICTORY_POINT)
    assert rules.victory_points(state, 0) == 9
    state = on_top(state, VICTORY_POINT)
    state = give(state, 0, wool=1, grain=1, ore=1)
    events = rules.apply(state, 0, {"type": "buy_development"})
    assert state.winner == 0 and state.phase == GAME_OVER
    assert any(e["type"] == "game_won" and e["seat"] == 0 for e in events)


def test_points_below_the_target_do_not_win():
    state = main_phase_game()
    for v in (22, 84, 43):
        state = settle(state, 0, v, city=True)
    state = hold(state, 0, VICTORY_POINT, VICTORY_POINT)
    state = on_top(state, KNIGHT)
    state = give(state, 0, wool=1, grain=1, ore=1)
    rules.apply(state, 0, {"type": "buy_development"})
    assert rules.victory_points(state, 0) == 8
    assert state.winner is None and state.phase == MAIN


def longest_road_swing_position() -> rules.State:
    """Seat 0 holds Longest Road (7 along zigzag A). Seat 2 has 8 points and a road of 6 along zigzag C,
    so it takes the card, and reaches 10, when anyone cuts seat 0's road."""
    state = main_phase_game(current=1)
    a, c = row_top(state, 0), row_bottom(state, 1)
    state = settle(state, 0, a[0])
    state = lay_road(state, 0, a[:8])  # 41 .. 37
    state = settle(state, 2, c[0], city=True)
    state = settle(state, 2, c[6], city=True)
    state = lay_road(state, 2, c[:7])  # 64 .. 73
    assert state.longest_road == 0
    state = hold(state, 2, VICTORY_POINT, VICTORY_POINT, VICTORY_POINT, VICTORY_POINT)
    assert rules.victory_points(state, 2) == 8
    return state


def test_a_win_only_on_ones_own_turn_reached_on_anothers_turn_it_wins_at_the_start_of_ones_next_turn():
    state = longest_road_swing_position()
    # Seat 1, on its own turn, cuts seat 0's road with a settlement at 43.
    state = settle(state, 1, 59)
    state = lay_road(state, 1, [59, 51, 43])
    state = give(state, 1, lumber=1, brick=1, wool=1, grain=1)
    events = rules.apply(state, 1, {"type": "build_settlement", "vertex": 43})
    assert state.longest_road == 2
    assert rules.victory_points(state, 2) == 10
    assert state.winner is None and state.phase == MAIN, "not seat 2's turn: no win yet"
    assert not any(e["type"] == "game_won" for e in events)
    assert rules.to_move(state) == [1]
    events = rules.apply(state, 1, {"type": "end_turn"})
    assert state.winner == 2 and state.phase == GAME_OVER
    assert {"type": "turn_ended", "seat": 1, "next": 2} in events
    assert any(e["type"] == "game_won" and e["seat"] == 2 for e in events)
    assert rules.to_move(state) == []


def test_a_win_reached_on_anothers_turn_needs_to_still_hold_at_ones_own_turn():
    state = main_phase_game(current=0)
    a, c, e = row_top(state, 0), row_bottom(state, 1), row_top(state, -2)
    state = settle(state, 3, a[0])
    state = lay_road(state, 3, a[:9])  # 41 .. 45: 8 long, the holder
    state = settle(state, 2, c[0], city=True)
    state = settle(state, 2, c[7], city=True)
    state = lay_road(state, 2, c[:8])  # 64 .. 74: 7 long
    state = hold(state, 2, VICTORY_POINT, VICTORY_POINT, VICTORY_POINT, VICTORY_POINT)
    state = settle(state, 1, e[0])
    state = lay_road(state, 1, e)  # 15 .. 18: 6 long
    assert state.longest_road == 3
    # Seat 0 cuts seat 3's road at 43: 4 + 4. Seat 2 takes the card and has 10 points, on seat 0's turn.
    state = settle(state, 0, 59)
    state = lay_road(state, 0, [59, 51, 43])
    state = give(state, 0, lumber=1, brick=1, wool=1, grain=1)
    rules.apply(state, 0, {"type": "build_settlement", "vertex": 43})
    assert state.longest_road == 2 and rules.victory_points(state, 2) == 10
    rules.apply(state, 0, {"type": "end_turn"})
    assert state.winner is None and state.current == 1
    # Seat 1 lengthens its road to 8 and takes the card before seat 2's turn comes.
    force_roll(state, 5)
    rules.apply(state, 1, {"type": "roll"})
    state = give(state, 1, lumber=2, brick=2)
    rules.apply(state, 1, {"type": "build_road", "edge": edge_between(state, 18, 24)})
    rules.apply(state, 1, {"type": "build_road", "edge": edge_between(state, 24, 30)})
    assert state.longest_road == 1
    assert rules.victory_points(state, 2) == 8
    rules.apply(state, 1, {"type": "end_turn"})
    assert state.winner is None
    assert state.phase == ROLL and state.current == 2
    assert actions_of(state, 2, "roll")


def test_a_win_checked_at_the_start_of_the_turn_also_counts_hidden_cards():
    state = main_phase_game(current=3)
    for v in (22, 84, 43, 12):
        state = settle(state, 0, v, city=True)
    state = hold(state, 0, VICTORY_POINT, VICTORY_POINT)  # 10 points, reached somehow outside seat 0's turn
    assert rules.view(state, None)["seats"][0]["public_victory_points"] == 8
    rules.apply(state, 3, {"type": "end_turn"})
    assert state.winner == 0 and state.phase == GAME_OVER
