"""RULES.md §8, Longest Road: trail length (each edge once, branches do not add, a loop counts, an opponent's
building cuts), the first to 5 takes the card, another must exceed, and the three outcomes of a broken road.

Roads run along the zigzags of the beginner board (see rule_positions): A is the top of the middle row,
eleven vertices long; C the bottom of the row below it; E the top of the board.
"""

from __future__ import annotations

import rules
from rules.longest_road import trail_length

from .rule_positions import (
    anchored_road,
    edge_between,
    edit,
    give,
    hex_ring,
    lay_road,
    main_phase_game,
    row_bottom,
    row_top,
    settle,
)


def zigzags(state: rules.State) -> tuple[list[int], list[int], list[int]]:
    return row_top(state, 0), row_bottom(state, 1), row_top(state, -2)


def line(state: rules.State, seat: int, vertices: list[int]) -> rules.State:
    """The seat's settlement on the first vertex and its roads along the path (the settlement scores 1)."""
    return lay_road(settle(state, seat, vertices[0]), seat, vertices)


def build_road(state: rules.State, seat: int, a: int, b: int) -> tuple[rules.State, list[dict]]:
    """On `seat`'s turn, it pays for and builds the road a-b."""
    state = give(edit(state, current=seat), seat, lumber=1, brick=1)
    return state, rules.apply(state, seat, {"type": "build_road", "edge": edge_between(state, a, b)})


def cut_with_settlement(state: rules.State, seat: int, vertex: int, approach: int) -> tuple[rules.State, list[dict]]:
    """On `seat`'s turn, with a road from `approach` to `vertex` (and a settlement of its own behind
    `approach`), it builds a settlement on `vertex`."""
    state = anchored_road(edit(state, current=seat), seat, [approach, vertex])
    state = give(state, seat, lumber=1, brick=1, wool=1, grain=1)
    return state, rules.apply(state, seat, {"type": "build_settlement", "vertex": vertex})


# --- trail length --------------------------------------------------------------------------------------


def test_longest_road_length_counts_each_edge_of_a_simple_path():
    state = main_phase_game()
    a, _, _ = zigzags(state)
    state = line(state, 0, a)
    assert trail_length(state, 0) == 10
    assert rules.view(state, None)["seats"][0]["road_length"] == 10


def test_longest_road_a_loop_counts():
    state = main_phase_game()
    ring = hex_ring(state, 0, 0)
    state = settle(state, 0, ring[0])
    state = lay_road(state, 0, ring)
    assert trail_length(state, 0) == 6, "all six edges of a closed loop"
    # A loop with a tail: the trail runs down the tail and all the way round the loop.
    state = lay_road(state, 0, [37, ring[1]])
    assert trail_length(state, 0) == 7


def test_longest_road_closing_a_loop_takes_the_card():
    state = main_phase_game()
    _, c, _ = zigzags(state)
    state = line(state, 1, c[:7])  # 6 long: the holder
    assert state.longest_road == 1
    ring = hex_ring(state, 0, 0)  # 36, 44, 52, 59, 51, 43, 36
    # A tail 37-44 and five edges of the ring: a path of 6, which only ties the holder.
    state = line(state, 0, [37, *ring[1:]])
    assert state.road_length[0] == 6
    state, _ = build_road(state, 0, ring[0], ring[1])  # closes the loop
    assert state.road_length[0] == 7
    assert state.longest_road == 0


def test_longest_road_a_branch_does_not_add():
    state = main_phase_game()
    a, _, _ = zigzags(state)  # 41, 34, 42, 35, 43, ...
    state = line(state, 0, a[:5])  # 4 edges: 41-34-42-35-43
    state, _ = build_road(state, 0, 35, 28)  # a branch at 35: five roads, but the longest trail is still 4
    assert sum(1 for o in state.edge_owner if o == 0) == 5
    assert state.road_length[0] == 4
    assert state.longest_road == -1
    state, _ = build_road(state, 0, 28, 22)  # 41-34-42-35-28-22 is 5 long
    assert state.road_length[0] == 5
    assert state.longest_road == 0


def test_longest_road_an_opponents_building_cuts_the_trail():
    state = main_phase_game()
    a, _, _ = zigzags(state)
    state = line(state, 0, a[:7])  # 41 .. 36: 6 long
    assert state.road_length[0] == 6
    # Seat 1 builds a settlement at 42, the third vertex: 2 + 4.
    state, _ = cut_with_settlement(state, 1, a[2], 50)
    assert state.road_length[0] == 4
    assert trail_length(state, 0) == 4


def test_longest_road_your_own_building_does_not_cut():
    state = main_phase_game()
    a, _, _ = zigzags(state)
    state = line(state, 0, a[:7])
    state = give(state, 0, lumber=1, brick=1, wool=1, grain=1)
    rules.apply(state, 0, {"type": "build_settlement", "vertex": a[2]})
    assert state.road_length[0] == 6


def test_longest_road_trail_does_not_continue_through_an_opponents_city():
    state = main_phase_game()
    a, _, _ = zigzags(state)
    state = line(state, 0, a[:7])
    state = settle(state, 1, a[3], city=True)
    assert trail_length(state, 0) == 3  # 41-34-42-35 | 35-43-36-...


# --- the card ------------------------------------------------------------------------------------------


def test_longest_road_needs_five_and_the_first_to_five_takes_it():
    state = main_phase_game()
    a, _, _ = zigzags(state)
    state = line(state, 0, a[:4])  # 3 long
    state, _ = build_road(state, 0, a[3], a[4])
    assert state.road_length[0] == 4 and state.longest_road == -1
    state, events = build_road(state, 0, a[4], a[5])
    assert state.road_length[0] == 5
    assert state.longest_road == 0
    assert {"type": "longest_road", "seat": 0, "length": 5} in events
    assert rules.victory_points(state, 0) == 1 + 2
    assert rules.view(state, None)["seats"][0]["longest_road"] is True


def test_longest_road_another_player_must_exceed_the_holder():
    state = main_phase_game()
    a, c, _ = zigzags(state)
    state = line(state, 0, a[:5])
    state, _ = build_road(state, 0, a[4], a[5])  # seat 0 takes it with 5
    state = line(state, 1, c[:5])  # 4 long
    state, _ = build_road(state, 1, c[4], c[5])  # 5: a tie
    assert state.road_length[1] == 5
    assert state.longest_road == 0
    state, _ = build_road(state, 1, c[5], c[6])  # 6: more than the holder
    assert state.longest_road == 1
    assert rules.victory_points(state, 0) == 1 and rules.victory_points(state, 1) == 1 + 2
    # The former holder must now exceed 6 in turn.
    state, _ = build_road(state, 0, a[5], a[6])
    assert state.longest_road == 1
    state, _ = build_road(state, 0, a[6], a[7])
    assert state.longest_road == 0


def broken_road_position(holder_length: int) -> rules.State:
    """Seat 0 holds the card with a road along zigzag A; seat 2 is the active player."""
    state = main_phase_game(current=2)
    a, _, _ = zigzags(state)
    state = line(state, 0, a[: holder_length + 1])
    assert state.longest_road == 0
    return state


def test_broken_road_one_player_alone_longest_takes_the_card():
    state = broken_road_position(7)  # 41 .. 37
    _, c, _ = zigzags(state)
    state = line(state, 1, c[:7])  # 6 long
    state, _ = cut_with_settlement(state, 2, 43, 51)  # 41..43 is 4, 43..37 is 3
    assert state.road_length[0] == 4
    assert state.longest_road == 1


def test_broken_road_the_cutter_alone_longest_takes_the_card():
    state = broken_road_position(7)
    _, c, _ = zigzags(state)
    state = line(state, 2, c[:7])  # 6 long, shorter than the holder's 7
    state, _ = cut_with_settlement(state, 2, 43, 51)
    assert state.road_length[0] == 4 and state.road_length[2] == 6
    assert state.longest_road == 2
    assert rules.victory_points(state, 2) == 3 + 2  # three settlements (one new) and the card


def test_broken_road_former_holder_tied_for_longest_keeps_the_card():
    state = broken_road_position(8)  # 41 .. 45
    _, c, _ = zigzags(state)
    state = line(state, 1, c[:7])  # 6 long
    state, _ = cut_with_settlement(state, 2, 44, 52)  # 41..44 is 6, 44-37-45 is 2
    assert state.road_length[0] == 6
    assert state.road_length[1] == 6
    assert state.longest_road == 0


def test_broken_road_others_tied_for_longest_sets_the_card_aside():
    state = broken_road_position(7)
    _, c, e = zigzags(state)
    state = line(state, 1, c[:7])  # 6 long
    state = line(state, 3, e)  # 6 long
    state, _ = cut_with_settlement(state, 2, 43, 51)
    assert state.road_length[0] == 4
    assert state.longest_road == -1
    assert rules.view(state, None)["seats"][1]["longest_road"] is False
    assert rules.view(state, None)["seats"][3]["longest_road"] is False
    # Whoever then has the longest road alone takes it.
    state, _ = build_road(state, 3, e[-1], 24)
    assert state.road_length[3] == 7
    assert state.longest_road == 3


def test_broken_road_nobody_at_five_sets_the_card_aside():
    state = broken_road_position(7)
    _, c, _ = zigzags(state)
    state = line(state, 1, c[:4])  # 3 long
    state, _ = cut_with_settlement(state, 2, 43, 51)
    assert state.road_length[0] == 4
    assert state.longest_road == -1
    assert rules.victory_points(state, 0) == 1
    # The card comes back to the first to reach 5 again.
    state, _ = build_road(state, 1, c[3], c[4])
    assert state.longest_road == -1
    state, _ = build_road(state, 1, c[4], c[5])
    assert state.longest_road == 1
