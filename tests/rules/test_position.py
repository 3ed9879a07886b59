"""rules.position, rules.describe and the dice hook: positions are checked, derived facts computed, and a
described position comes back the same."""

from __future__ import annotations

import random

import pytest

import rules
from rules.testing import fix_dice

from .rule_positions import BEGINNER, new_beginner_game, path_of_edges, row_top

FACTS = (
    "vertex_owner",
    "vertex_city",
    "edge_owner",
    "edge_ship",
    "hands",
    "bank",
    "deck",
    "development",
    "development_new",
    "development_used",
    "road_length",
    "longest_road",
    "largest_army",
    "supply",
    "terrain",
    "phase",
    "current",
    "robber",
    "pirate",
)


def line_of_roads(length: int) -> dict:
    line = row_top(new_beginner_game(), 0)
    return {"settlements": [line[0]], "roads": path_of_edges(new_beginner_game(), line[: length + 1])}


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"seats": [{"settlements": [43, 51]}]}, "distance rule"),
        ({"seats": [{"settlements": [0]}]}, "not on land"),
        ({"seats": [{"roads": [65]}]}, "joins none"),  # the road 43-51, with no building
        ({"seats": [{"settlements": [True]}]}, "whole number"),
        ({"seats": [{"hand": {"ore": 20}}]}, "19 cards"),
        ({"seats": [{"development_used": {"victory_point": 1}}]}, "never played"),
        ({"seats": [{"development": {"monopoly": 3}}]}, "than the deck holds"),
        ({"phase": "roll", "dice": [3, 4]}, "dice"),
        ({"phase": "discard"}, "discards_owed"),
        ({"colour": "red"}, "unknown fields"),
        ({"seats": [{"ships": [3]}]}, "Seafarers"),
        ({"seats": [{"cities": [22, 84, 43, 12, 66]}]}, "supply"),
    ],
)
def test_an_impossible_position_is_refused(fields, fragment):
    with pytest.raises(rules.IllegalAction) as refused:
        rules.position(options=BEGINNER, **fields)
    assert refused.value.code == "bad_position"
    assert fragment in refused.value.message


def test_derived_facts_are_computed_from_the_pieces():
    state = rules.position(
        options=BEGINNER,
        seats=[line_of_roads(6), {"development_used": {"knight": 3}, "hand": {"ore": 2}}],
        current=2,
    )
    assert state.road_length[0] == 6 and state.longest_road == 0
    assert state.largest_army == 1
    assert state.supply[0] == {"roads": 9, "settlements": 4, "cities": 4, "ships": 15}
    assert state.bank == [19, 19, 19, 19, 17]
    assert len(state.deck) == 25 - 3
    assert rules.view(state, None)["seats"][0]["public_victory_points"] == 3


def test_a_tie_for_a_card_leaves_it_aside_unless_the_description_names_a_leader():
    seats = [{"development_used": {"knight": 3}}, {"development_used": {"knight": 3}}]
    assert rules.position(options=BEGINNER, seats=seats).largest_army == -1
    assert rules.position(options=BEGINNER, seats=seats, largest_army=1).largest_army == 1
    with pytest.raises(rules.IllegalAction):
        rules.position(options=BEGINNER, seats=[line_of_roads(4)], longest_road=0)


@pytest.mark.parametrize(("scenario", "players"), [("base", 4), ("four_islands_4", 4), ("oceania_4", 4)])
def test_a_described_position_comes_back_the_same(scenario, players):
    state = rules.new_game(scenario=scenario, players=players, seed=5)
    rng = random.Random(5)
    checked = 0
    while rules.to_move(state) and checked < 20:
        seat = rules.to_move(state)[0]
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        if state.turn > 3 and state.trade is None and rng.random() < 0.2:
            again = rules.position(rules.describe(state))
            assert all(getattr(again, name) == getattr(state, name) for name in FACTS)
            checked += 1
    assert checked


def test_fix_dice_sets_the_next_roll_only():
    state = rules.position(options=BEGINNER, phase="roll")
    fix_dice(state, 6, 6)
    events = rules.apply(state, 0, {"type": "roll"})
    assert events[0]["dice"] == [6, 6] and state.dice == [6, 6]
    assert "forced_dice" not in rules.dump(state)
    with pytest.raises(rules.IllegalAction):
        fix_dice(state, 0, 7)
