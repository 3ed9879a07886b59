"""RULES.md §7 (the five development cards) and their timing from §4.4: one card per turn, never the turn it
was bought; Victory Point cards are never played."""

from __future__ import annotations

import rules
from rules.constants import (
    DEVELOPMENT_CARDS,
    DEVELOPMENT_DECK,
    KNIGHT,
    MONOPOLY,
    RESOURCES,
    ROAD_BUILDING,
    VICTORY_POINT,
    YEAR_OF_PLENTY,
)
from rules.state import DISCARD, MAIN, ROBBER, ROLL
from rules.state import ROAD_BUILDING as ROAD_BUILDING_PHASE

from .rule_positions import (
    actions_of,
    anchored_road,
    assert_refused,
    counts,
    edge_between,
    edit,
    edit_seat,
    force_roll,
    give,
    hex_id,
    hold,
    kinds,
    lay_road,
    main_phase_game,
    on_top,
    roll_phase_game,
    row_bottom,
    row_top,
    settle,
    total_cards,
)

PLAYS = {"play_knight", "play_road_building", "play_year_of_plenty", "play_monopoly"}


def pass_turn(state: rules.State) -> None:
    """The current player rolls a 5 (nothing on the board produces) and ends the turn."""
    force_roll(state, 5)
    rules.apply(state, state.current, {"type": "roll"})
    rules.apply(state, state.current, {"type": "end_turn"})


# --- buying and timing ---------------------------------------------------------------------------------


def test_buying_draws_the_top_card_of_the_deck():
    state = main_phase_game()
    state = give(state, 0, wool=1, grain=1, ore=1)
    top = state.deck[-1]
    size = len(state.deck)
    events = rules.apply(state, 0, {"type": "buy_development"})
    assert len(state.deck) == size - 1
    assert state.development_new[0][top] == 1
    private = rules.events_for(events, 0)
    public = rules.events_for(events, 1)
    assert any(e.get("card") for e in private)
    assert not any("card" in e for e in public), "others do not learn which card was drawn"


def test_no_development_card_can_be_bought_once_the_deck_is_empty():
    state = main_phase_game()
    state = give(state, 0, wool=1, grain=1, ore=1)
    state = edit_seat(state, 1, development=dict(zip(DEVELOPMENT_CARDS, DEVELOPMENT_DECK, strict=True)))
    assert rules.view(state, 0)["deck_count"] == 0
    assert "buy_development" not in kinds(state, 0)
    assert_refused(state, 0, {"type": "buy_development"})


def test_a_development_card_bought_this_turn_cannot_be_played():
    state = main_phase_game()
    state = give(state, 0, wool=1, grain=1, ore=1)
    state = on_top(state, KNIGHT)
    rules.apply(state, 0, {"type": "buy_development"})
    assert state.development_new[0][KNIGHT] == 1
    assert "play_knight" not in kinds(state, 0)
    assert_refused(state, 0, {"type": "play_knight"})
    rules.apply(state, 0, {"type": "end_turn"})
    for _ in range(3):
        pass_turn(state)
    assert state.current == 0 and state.phase == ROLL
    assert "play_knight" in kinds(state, 0), "playable on a later turn, even before the roll"


def test_an_old_card_may_be_played_in_the_turn_another_is_bought():
    state = main_phase_game()
    state = hold(state, 0, MONOPOLY)
    state = give(state, 0, wool=1, grain=1, ore=1)
    state = on_top(state, MONOPOLY)
    rules.apply(state, 0, {"type": "buy_development"})
    assert state.development[0][MONOPOLY] == 1 and state.development_new[0][MONOPOLY] == 1
    rules.apply(state, 0, {"type": "play_monopoly", "resource": "ore"})
    assert state.development[0][MONOPOLY] == 0 and state.development_new[0][MONOPOLY] == 1


def test_a_second_development_card_in_one_turn_is_refused():
    state = main_phase_game()
    state = hold(state, 0, KNIGHT, MONOPOLY, YEAR_OF_PLENTY, ROAD_BUILDING)
    state = settle(state, 0, 43)
    assert PLAYS <= kinds(state, 0)
    rules.apply(state, 0, {"type": "play_monopoly", "resource": "wool"})
    assert not PLAYS & kinds(state, 0)
    for action in (
        {"type": "play_knight"},
        {"type": "play_road_building"},
        {"type": "play_year_of_plenty", "resources": ["ore", "ore"]},
    ):
        assert_refused(state, 0, action)
    # The next turn, one more may be played.
    rules.apply(state, 0, {"type": "end_turn"})
    for _ in range(3):
        pass_turn(state)
    assert PLAYS - {"play_monopoly"} <= kinds(state, 0)


def test_a_card_played_before_the_roll_is_the_one_card_of_the_turn():
    state = roll_phase_game()
    state = hold(state, 0, KNIGHT, KNIGHT, YEAR_OF_PLENTY)
    rules.apply(state, 0, {"type": "play_knight"})
    rules.apply(state, 0, actions_of(state, 0, "move_robber")[0])
    assert not PLAYS & kinds(state, 0)
    force_roll(state, 5)
    rules.apply(state, 0, {"type": "roll"})
    assert not PLAYS & kinds(state, 0)
    assert_refused(state, 0, {"type": "play_knight"})


def test_victory_point_cards_are_never_played():
    state = main_phase_game()
    state = hold(state, 0, VICTORY_POINT)
    assert not any("victory" in t for t in kinds(state, 0))
    assert_refused(state, 0, {"type": "play_victory_point"})
    assert rules.victory_points(state, 0) == 1
    public = rules.view(state, 1)["seats"][0]
    assert public["public_victory_points"] == 0 and "victory_points" not in public
    assert rules.view(state, 0)["seats"][0]["victory_points"] == 1


# --- Knight --------------------------------------------------------------------------------------------


def test_knight_moves_the_robber_and_steals_without_discards():
    state = main_phase_game()
    state = hold(state, 0, KNIGHT)
    hills = hex_id(state, 0, -1)
    state = settle(state, 1, state.derived.topo.hex_vertices[hills][0])
    state = give(state, 1, ore=9)  # would discard on a 7, not on a knight
    events = rules.apply(state, 0, {"type": "play_knight"})
    assert events[0] == {"type": "played_knight", "seat": 0}
    assert state.phase == ROBBER and state.phase != DISCARD
    assert state.discards_owed == [0, 0, 0, 0]
    assert {"type": "move_robber", "hex": hills, "victim": 1} in rules.legal_actions(state, 0)
    assert_refused(state, 0, {"type": "move_robber", "hex": state.robber})
    rules.apply(state, 0, {"type": "move_robber", "hex": hills, "victim": 1})
    assert state.robber == hills
    assert state.hands[0] == counts(ore=1) and state.hands[1] == counts(ore=8)
    assert state.phase == MAIN
    # The card stays face up and counts toward Largest Army.
    assert state.development[0][KNIGHT] == 0
    assert state.development_used[0][KNIGHT] == 1
    assert rules.view(state, None)["seats"][0]["knights"] == 1


def play_knight(state: rules.State, seat: int) -> tuple[rules.State, list[dict]]:
    """`seat`'s turn, after the roll: it plays a knight (held from an earlier turn) and moves the robber."""
    state = hold(edit(state, current=seat, phase=MAIN, development_played=False), seat, KNIGHT)
    events = rules.apply(state, seat, {"type": "play_knight"})
    rules.apply(state, seat, actions_of(state, seat, "move_robber")[0])
    return state, events


def test_largest_army_first_to_three_knights_then_strictly_more():
    state = main_phase_game()
    state, _ = play_knight(state, 0)
    state, _ = play_knight(state, 0)
    assert state.largest_army == -1, "two knights are not enough"
    state, events = play_knight(state, 0)
    assert state.largest_army == 0
    assert {"type": "largest_army", "seat": 0, "knights": 3} in events
    assert rules.victory_points(state, 0) == 2
    for _ in range(3):
        state, _ = play_knight(state, 1)
    assert state.largest_army == 0, "a tie does not take the card"
    state, events = play_knight(state, 1)
    assert state.largest_army == 1
    assert {"type": "largest_army", "seat": 1, "knights": 4} in events
    assert rules.victory_points(state, 0) == 0 and rules.victory_points(state, 1) == 2
    assert rules.view(state, None)["seats"][1]["largest_army"] is True


# --- Road Building -------------------------------------------------------------------------------------


def test_road_building_places_two_free_roads():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = hold(state, 0, ROAD_BUILDING)
    rules.apply(state, 0, {"type": "play_road_building"})
    assert state.phase == ROAD_BUILDING_PHASE
    assert kinds(state, 0) == {"build_road"}
    rules.apply(state, 0, {"type": "build_road", "edge": edge_between(state, 43, 51)})
    assert state.phase == ROAD_BUILDING_PHASE
    # The second road may extend the first.
    rules.apply(state, 0, {"type": "build_road", "edge": edge_between(state, 51, 58)})
    assert state.phase == MAIN
    assert state.hands[0] == [0] * 5 and total_cards(state) == [19] * 5
    assert state.supply[0]["roads"] == 13
    assert "build_road" not in kinds(state, 0), "no more free roads, and no cards"


def test_road_building_places_one_road_when_only_one_is_in_the_supply():
    state = main_phase_game()
    state = settle(state, 0, 41)
    state = settle(state, 0, row_bottom(state, 0)[2])
    state = lay_road(state, 0, row_top(state, 0))  # 10 roads
    state = lay_road(state, 0, row_bottom(state, 0)[:5])  # 4 more: one left in the supply
    assert state.supply[0]["roads"] == 1
    state = hold(state, 0, ROAD_BUILDING)
    rules.apply(state, 0, {"type": "play_road_building"})
    rules.apply(state, 0, actions_of(state, 0, "build_road")[0])
    assert state.phase == MAIN
    assert state.supply[0]["roads"] == 0


def test_road_building_places_one_road_when_only_one_placement_is_possible():
    state = main_phase_game()
    # Seat 0: a settlement at 43 with a road to 51. Every other edge around is taken, and the one free edge
    # (51-58) ends at an opponent's settlement, so the network cannot go further.
    state = settle(state, 0, 43)
    state = lay_road(state, 0, [43, 51])
    state = anchored_road(state, 1, [35, 43, 36])
    state = anchored_road(state, 1, [59, 51])
    state = settle(state, 2, 58)
    state = hold(state, 0, ROAD_BUILDING)
    rules.apply(state, 0, {"type": "play_road_building"})
    assert actions_of(state, 0, "build_road") == [{"type": "build_road", "edge": edge_between(state, 51, 58)}]
    rules.apply(state, 0, {"type": "build_road", "edge": edge_between(state, 51, 58)})
    assert state.phase == MAIN
    assert state.free_roads == 0


def test_road_building_cannot_be_played_with_no_placement():
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = anchored_road(state, 1, [35, 43, 36])
    state = lay_road(state, 1, [43, 51])
    state = hold(state, 0, ROAD_BUILDING)
    assert "play_road_building" not in kinds(state, 0)
    assert_refused(state, 0, {"type": "play_road_building"})


# --- Year of Plenty ------------------------------------------------------------------------------------


def test_year_of_plenty_takes_any_two_resources():
    state = main_phase_game()
    state = hold(state, 0, YEAR_OF_PLENTY)
    choices = [a["resources"] for a in actions_of(state, 0, "play_year_of_plenty")]
    assert len(choices) == 15  # 5 pairs of the same resource and 10 of two different ones
    assert ["ore", "ore"] in choices and ["lumber", "ore"] in choices
    rules.apply(state, 0, {"type": "play_year_of_plenty", "resources": ["ore", "ore"]})
    assert state.hands[0] == counts(ore=2)
    assert state.bank[4] == 17


def empty_bank_but(state: rules.State, **left: int) -> rules.State:
    """The position with every bank card in seats 1-3, except the counts `left` in the bank."""
    description = rules.describe(state)
    for name in RESOURCES:
        moving = description["bank"][name] - left.get(name, 0)
        description["seats"][1 + RESOURCES.index(name) % 3]["hand"][name] += moving
        description["bank"][name] -= moving
    return rules.position(description)


def test_year_of_plenty_limited_by_the_bank_one_card_left():
    state = main_phase_game()
    state = hold(state, 0, YEAR_OF_PLENTY)
    state = empty_bank_but(state, ore=1)
    assert state.bank == counts(ore=1)
    assert actions_of(state, 0, "play_year_of_plenty") == [{"type": "play_year_of_plenty", "resources": ["ore"]}]
    assert_refused(state, 0, {"type": "play_year_of_plenty", "resources": ["ore", "ore"]})
    assert_refused(state, 0, {"type": "play_year_of_plenty", "resources": ["ore", "grain"]})
    rules.apply(state, 0, {"type": "play_year_of_plenty", "resources": ["ore"]})
    assert state.hands[0] == counts(ore=1)
    assert state.bank == [0] * 5
    assert total_cards(state) == [19] * 5


def test_year_of_plenty_limited_by_the_bank_pairs():
    state = main_phase_game()
    state = hold(state, 0, YEAR_OF_PLENTY)
    state = empty_bank_but(state, ore=1, grain=5)
    choices = [a["resources"] for a in actions_of(state, 0, "play_year_of_plenty")]
    assert sorted(choices) == [["grain", "grain"], ["grain", "ore"]]
    assert_refused(state, 0, {"type": "play_year_of_plenty", "resources": ["ore", "ore"]})
    assert_refused(state, 0, {"type": "play_year_of_plenty", "resources": ["ore"]})
    rules.apply(state, 0, {"type": "play_year_of_plenty", "resources": ["grain", "ore"]})
    assert state.hands[0] == counts(grain=1, ore=1)


# --- Monopoly ------------------------------------------------------------------------------------------


def test_monopoly_takes_all_of_the_named_resource_from_every_other_player():
    state = main_phase_game()
    state = hold(state, 0, MONOPOLY)
    state = give(state, 0, wool=1)
    state = give(state, 1, wool=3, brick=1)
    state = give(state, 2, wool=1, ore=2)
    state = give(state, 3, grain=4)
    events = rules.apply(state, 0, {"type": "play_monopoly", "resource": "wool"})
    assert events == [{"type": "played_monopoly", "seat": 0, "resource": "wool", "taken": {"1": 3, "2": 1}}]
    assert state.hands[0] == counts(wool=5)
    assert state.hands[1] == counts(brick=1)
    assert state.hands[2] == counts(ore=2)
    assert state.hands[3] == counts(grain=4)
    assert total_cards(state) == [19] * 5


def test_monopoly_of_a_resource_nobody_holds_takes_nothing():
    state = main_phase_game()
    state = hold(state, 0, MONOPOLY)
    state = give(state, 1, ore=2)
    assert_refused(state, 0, {"type": "play_monopoly", "resource": "gold"})
    assert_refused(state, 0, {"type": "play_monopoly"})
    rules.apply(state, 0, {"type": "play_monopoly", "resource": "lumber"})
    assert state.hands[0] == [0] * 5 and state.hands[1] == counts(ore=2)
    assert state.development_used[0][MONOPOLY] == 1
