"""The engine's public face (issue 3): `apply` refuses anything illegal or malformed and leaves the state
untouched; views show one's own cards exactly and others only as counts, and no hidden order; the same
seed and log give the same dump; dump / load round-trips."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules
from rules.constants import KNIGHT, MONOPOLY, VICTORY_POINT

from .rule_positions import (
    actions_of,
    assert_refused,
    edit_seat,
    force_roll,
    give,
    hold,
    main_phase_game,
    new_beginner_game,
    on_top,
    roll_phase_game,
    settle,
)

# --- illegal actions change nothing --------------------------------------------------------------------


NON_ACTIONS = [None, "roll", 7, ["roll"], ("roll",), {"kind": "roll"}, {"type": 3}, {"type": None}, {}]


@pytest.mark.parametrize("action", NON_ACTIONS, ids=repr)
def test_apply_refuses_a_non_action_and_changes_nothing(action):
    state = roll_phase_game()
    assert assert_refused(state, 0, action).code == "malformed"


@pytest.mark.parametrize("seat", [-1, 4, 99])
def test_apply_refuses_a_seat_that_does_not_exist(seat):
    state = roll_phase_game()
    assert_refused(state, seat, {"type": "roll"}, "bad_seat")


@pytest.mark.parametrize("seat", ["0", None, 0.0, False, True])
def test_apply_refuses_a_seat_that_is_not_an_integer(seat):
    state = roll_phase_game()
    assert_refused(state, seat, {"type": "roll"}, "bad_action")


def test_apply_refuses_the_wrong_seat():
    state = roll_phase_game()
    for seat in (1, 2, 3):
        assert_refused(state, seat, {"type": "roll"}, "not_your_turn")
        assert_refused(state, seat, {"type": "end_turn"}, "not_your_turn")
    state = new_beginner_game()  # set-up: seat 0 places first
    vertex = actions_of(state, 0, "build_settlement")[0]["vertex"]
    assert_refused(state, 1, {"type": "build_settlement", "vertex": vertex}, "not_your_turn")


def test_apply_refuses_an_unknown_action_type():
    state = roll_phase_game()
    assert_refused(state, 0, {"type": "fly"}, "unknown_action")
    assert_refused(state, 0, {"type": "play_victory_point"}, "unknown_action")


def test_apply_refuses_actions_of_the_wrong_phase():
    state = roll_phase_game()
    state = settle(state, 0, 43)
    state = give(state, 0, lumber=4, brick=4, wool=4, grain=4, ore=4)
    for action in (
        {"type": "end_turn"},
        {"type": "build_road", "edge": state.derived.topo.vertex_edges[43][0]},
        {"type": "move_robber", "hex": 1},
        {"type": "discard", "cards": {"lumber": 1}},
        {"type": "accept_trade"},
        {"type": "confirm_trade", "seat": 1},
        {"type": "build_settlement", "vertex": 10},
    ):
        assert_refused(state, 0, action)
    force_roll(state, 5)
    rules.apply(state, 0, {"type": "roll"})
    assert_refused(state, 0, {"type": "roll"})


@pytest.mark.parametrize(
    "action",
    [
        {"type": "build_road", "edge": 10_000},
        {"type": "build_road", "edge": -1},
        {"type": "build_road", "edge": "0"},
        {"type": "build_road", "edge": None},
        {"type": "build_road"},
        {"type": "build_settlement", "vertex": 10_000},
        {"type": "build_settlement", "vertex": [58]},
        {"type": "build_city", "vertex": -5},
        {"type": "trade_bank", "give": "lumber", "get": 3},
        {"type": "trade_bank", "give": "LUMBER", "get": "ore"},
        {"type": "play_monopoly", "resource": 4},
        {"type": "end_turn", "now": True},
        {"type": "discard", "cards": {"lumber": 1}},
    ],
    ids=lambda a: json.dumps(a),
)
def test_apply_refuses_bad_ids_and_arguments_and_changes_nothing(action):
    state = main_phase_game()
    state = settle(state, 0, 43)
    state = hold(state, 0, MONOPOLY)
    state = give(state, 0, lumber=5, brick=5, wool=5, grain=5, ore=5)
    assert_refused(state, 0, action)


def test_apply_refuses_malformed_discards_and_changes_nothing():
    state = roll_phase_game()
    state = give(state, 1, lumber=9)
    force_roll(state, 7)
    rules.apply(state, 0, {"type": "roll"})
    for action in (
        {"type": "discard"},
        {"type": "discard", "cards": ["lumber"]},
        {"type": "discard", "cards": {"lumber": -4}},
        {"type": "discard", "cards": {"lumber": "4"}},
        {"type": "discard", "cards": {"mud": 4}},
        {"type": "discard", "cards": {}},
        {"type": "discard", "cards": {"lumber": 5}},
        {"type": "discard", "cards": {"lumber": 4}, "also": 1},
    ):
        assert_refused(state, 1, action)
    assert_refused(state, 0, {"type": "discard", "cards": {"lumber": 1}})


def test_apply_refuses_everything_once_the_game_is_over():
    state = main_phase_game(vp_target=3)
    state = settle(state, 0, 43, city=True)
    state = give(state, 0, wool=1, grain=1, ore=1)
    state = on_top(state, VICTORY_POINT)
    rules.apply(state, 0, {"type": "buy_development"})
    assert state.winner == 0
    for seat in range(4):
        assert_refused(state, seat, {"type": "end_turn"}, "game_over")


# --- views ---------------------------------------------------------------------------------------------


def viewed_position() -> rules.State:
    state = main_phase_game(seed=918_273_645_546_372)
    state = give(state, 0, lumber=2, ore=1)
    state = give(state, 1, wool=3)
    state = give(state, 2, grain=1, brick=1)
    state = hold(state, 1, KNIGHT, MONOPOLY)
    return edit_seat(state, 1, development_new={"victory_point": 1})


def all_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in all_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in all_keys(v)}
    return set()


def test_view_shows_ones_own_hand_exactly_and_others_only_as_counts():
    state = viewed_position()
    mine = rules.view(state, 1)
    seats = mine["seats"]
    assert seats[1]["resources"] == {"lumber": 0, "brick": 0, "wool": 3, "grain": 0, "ore": 0}
    assert seats[1]["development"]["knight"] == 1 and seats[1]["development"]["monopoly"] == 1
    assert seats[1]["development_new"]["victory_point"] == 1
    assert seats[1]["victory_points"] == 1
    for other in (0, 2, 3):
        assert "resources" not in seats[other]
        assert "development" not in seats[other] and "development_new" not in seats[other]
        assert "victory_points" not in seats[other]
    assert seats[0]["resource_count"] == 3
    assert seats[2]["resource_count"] == 2
    assert seats[1]["development_count"] == 3
    assert rules.view(state, 0)["seats"][1]["development_count"] == 3


def test_spectator_view_has_no_hand():
    state = viewed_position()
    public = rules.view(state, None)
    assert public["viewer"] is None
    for seat in public["seats"]:
        assert not {"resources", "development", "development_new", "victory_points"} & set(seat)
    assert [s["resource_count"] for s in public["seats"]] == [3, 3, 2, 0]


def test_no_view_holds_the_seed_the_generator_or_the_deck_order():
    state = viewed_position()
    for viewer in (None, 0, 1, 2, 3):
        v = rules.view(state, viewer)
        keys = all_keys(v)
        assert not keys & {
            "seed",
            "stream",
            "deck",
            "hands",
            "setup_order",
            "hidden_terrain",
            "hidden_tokens",
        }
        text = json.dumps(v)
        assert str(state.seed) not in text
        assert str(state.stream) not in text
        assert v["deck_count"] == len(state.deck)
        json.loads(text)  # plain JSON


def test_view_refuses_a_seat_that_does_not_exist():
    state = viewed_position()
    for seat in (-1, 4, "1"):
        with pytest.raises(ValueError):
            rules.view(state, seat)


def test_view_does_not_change_the_state():
    state = viewed_position()
    before = rules.dump(state)
    for viewer in (None, 0, 1):
        rules.view(state, viewer)
    assert rules.dump(state) == before


# --- determinism and snapshots -------------------------------------------------------------------------


def random_log(seed: int, options: dict[str, Any], steps: int, rng_seed: int = 5) -> tuple[rules.State, list]:
    state = rules.new_game(players=4, seed=seed, options=options)
    rng = random.Random(rng_seed)
    log = []
    for _ in range(steps):
        seats = rules.to_move(state)
        if not seats:
            break
        seat = rng.choice(seats)
        action = rng.choice(rules.legal_actions(state, seat))
        rules.apply(state, seat, action)
        log.append((seat, json.loads(json.dumps(action))))
    return state, log


def test_same_seed_and_same_action_log_give_an_identical_dump():
    for seed, options in ((11, {}), (12, {"board": "beginner", "random_tokens": True})):
        state, log = random_log(seed, options, 400)
        again = rules.new_game(players=4, seed=seed, options=options)
        for seat, action in log:
            rules.apply(again, seat, action)
        assert rules.dump(again) == rules.dump(state)


def test_different_seeds_give_different_games():
    a, _ = random_log(21, {}, 50)
    b, _ = random_log(22, {}, 50)
    assert rules.dump(a) != rules.dump(b)


def test_dump_load_round_trip_is_equal_and_plays_on_identically():
    state, _ = random_log(31, {}, 250)
    data = rules.dump(state)
    assert data["schema"] == rules.SCHEMA_VERSION
    through_json = json.loads(json.dumps(data))
    copy = rules.load(through_json)
    assert rules.dump(copy) == data
    assert rules.view(copy, 0) == rules.view(state, 0)
    # Both continue the same way.
    rng = random.Random(9)
    for _ in range(150):
        seats = rules.to_move(state)
        if not seats:
            break
        seat = rng.choice(seats)
        action = rng.choice(rules.legal_actions(state, seat))
        assert rules.legal_actions(copy, seat) == rules.legal_actions(state, seat)
        assert rules.apply(copy, seat, action) == rules.apply(state, seat, action)
    assert rules.dump(copy) == rules.dump(state)


def test_load_is_independent_of_the_dumped_data():
    state, _ = random_log(41, {}, 100)
    data = rules.dump(state)
    copy = rules.load(data)
    snapshot = json.dumps(data, sort_keys=True)
    seat = rules.to_move(copy)[0]
    rules.apply(copy, seat, rules.legal_actions(copy, seat)[0])
    assert json.dumps(data, sort_keys=True) == snapshot
    assert rules.dump(state) == data


def test_load_refuses_an_unknown_schema():
    data = rules.dump(new_beginner_game())
    data["schema"] = 999
    with pytest.raises(ValueError):
        rules.load(data)
