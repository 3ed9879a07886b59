"""RULES.md §11: options every game can set — VP target, random tokens with no adjacent 6/8, seat order,
friendly robber — and the refusal of unknown or bad options."""

from __future__ import annotations

import math
from collections import Counter

import pytest

import rules
from rules.constants import DESERT, LAND, SPIRAL_TOKENS, TERRAINS, VICTORY_POINT
from rules.state import GAME_OVER

from .rule_positions import (
    actions_of,
    force_roll,
    give,
    hex_id,
    main_phase_game,
    new_beginner_game,
    on_top,
    roll_phase_game,
    settle,
)

# --- VP target -----------------------------------------------------------------------------------------


def test_vp_target_defaults_to_ten_for_the_base_game():
    assert rules.new_game(players=4, seed=1).vp_target == 10
    assert rules.view(rules.new_game(players=3, seed=1), None)["vp_target"] == 10


def five_points_and_a_victory_card_on_top(**options) -> rules.State:
    state = main_phase_game(**options)
    for v in (22, 84):
        state = settle(state, 0, v, city=True)
    state = settle(state, 0, 43)
    state = give(state, 0, wool=1, grain=1, ore=1)
    return on_top(state, VICTORY_POINT)


def test_vp_target_option_sets_the_points_needed_to_win():
    state = five_points_and_a_victory_card_on_top(vp_target=6)
    assert state.vp_target == 6 and rules.victory_points(state, 0) == 5
    rules.apply(state, 0, {"type": "buy_development"})
    assert state.winner == 0 and state.phase == GAME_OVER
    # With the default target the same position plays on.
    state = five_points_and_a_victory_card_on_top()
    rules.apply(state, 0, {"type": "buy_development"})
    assert rules.victory_points(state, 0) == 6
    assert state.winner is None


@pytest.mark.parametrize("target", [0, 2, 31, "10", 10.0, True, [10]])
def test_vp_target_option_refuses_bad_values(target):
    with pytest.raises(rules.IllegalAction) as error:
        rules.new_game(players=4, seed=1, options={"vp_target": target})
    assert error.value.code == "bad_option"


# --- random tokens -------------------------------------------------------------------------------------


def red_neighbours(state: rules.State) -> list[tuple[int, int]]:
    topo = state.derived.topo
    return [
        (h, n)
        for h, token in enumerate(state.tokens)
        if token in (6, 8)
        for n in topo.hex_neighbors[h]
        if state.tokens[n] in (6, 8)
    ]


def test_random_tokens_never_put_two_sixes_or_eights_side_by_side():
    layouts = set()
    for seed in range(40):
        state = rules.new_game(players=4, seed=seed, options={"random_tokens": True})
        assert red_neighbours(state) == []
        land = [h for h, t in enumerate(state.terrain) if t in LAND]
        assert Counter(state.tokens[h] for h in land if state.tokens[h]) == Counter(SPIRAL_TOKENS)
        assert state.tokens[state.terrain.index(DESERT)] == 0
        assert TERRAINS[state.terrain[state.robber]] == "desert"
        layouts.add(tuple(state.tokens))
    assert len(layouts) > 30, "tokens are shuffled per game"


def test_random_tokens_are_shuffled_freely_not_along_the_spiral():
    # Along the spiral the A→R order always puts 5, 2, 6 first; freely shuffled tokens often do not.
    def reading(state: rules.State) -> tuple[int, ...]:
        outer = sorted(
            (h for h, (q, r) in enumerate(state.hexes) if max(abs(q), abs(r), abs(q + r)) == 2),
            key=lambda h: math.atan2(
                1.5 * state.hexes[h][1], math.sqrt(3) * (state.hexes[h][0] + state.hexes[h][1] / 2)
            ),
        )
        return tuple(state.tokens[h] for h in outer if state.tokens[h])

    def has_run(tokens: tuple[int, ...], run: tuple[int, ...]) -> bool:
        doubled = tokens + tokens
        backward = tuple(reversed(doubled))
        return any(doubled[i : i + len(run)] == run or backward[i : i + len(run)] == run for i in range(len(tokens)))

    spiral = [has_run(reading(rules.new_game(players=4, seed=s)), (5, 2, 6)) for s in range(20)]
    shuffled = [
        has_run(reading(rules.new_game(players=4, seed=s, options={"random_tokens": True})), (5, 2, 6))
        for s in range(20)
    ]
    assert all(spiral)
    assert sum(shuffled) < len(shuffled) / 2


# --- seat order ----------------------------------------------------------------------------------------


def test_seat_order_fixed_starts_with_seat_zero():
    for seed in range(10):
        state = rules.new_game(players=4, seed=seed, options={"seat_order": "fixed"})
        assert state.first == 0
        assert rules.to_move(state) == [0]


def test_seat_order_random_draws_the_first_player():
    firsts = Counter()
    for seed in range(60):
        state = rules.new_game(players=4, seed=seed)
        assert rules.to_move(state) == [state.first]
        firsts[state.first] += 1
    assert set(firsts) == {0, 1, 2, 3}


def test_seat_order_option_refuses_unknown_values():
    with pytest.raises(rules.IllegalAction) as error:
        rules.new_game(players=4, seed=1, options={"seat_order": "clockwise"})
    assert error.value.code == "bad_option"


# --- friendly robber -----------------------------------------------------------------------------------


def friendly_position(friendly: bool) -> tuple[rules.State, int]:
    state = roll_phase_game(friendly_robber=friendly)
    hills = hex_id(state, 0, -1)
    corners = state.derived.topo.hex_vertices[hills]
    state = settle(state, 1, corners[0], city=True)  # 2 points
    state = settle(state, 2, corners[2], city=True)  # 3 points
    state = settle(state, 2, 84)
    state = give(state, 1, ore=2)
    state = give(state, 2, ore=2)
    force_roll(state, 7)
    rules.apply(state, 0, {"type": "roll"})
    return state, hills


def test_friendly_robber_spares_players_with_two_or_fewer_points():
    state, hills = friendly_position(True)
    victims = {a.get("victim") for a in actions_of(state, 0, "move_robber") if a["hex"] == hills}
    assert victims == {2}
    with pytest.raises(rules.IllegalAction):
        rules.apply(state, 0, {"type": "move_robber", "hex": hills, "victim": 1})


def test_friendly_robber_is_off_by_default():
    assert rules.new_game(players=4, seed=1).options["friendly_robber"] is False
    state, hills = friendly_position(False)
    victims = {a.get("victim") for a in actions_of(state, 0, "move_robber") if a["hex"] == hills}
    assert victims == {1, 2}


def test_friendly_robber_with_nobody_to_steal_from_still_moves():
    state, hills = friendly_position(True)
    state = give(state, 2)
    assert [a for a in actions_of(state, 0, "move_robber") if a["hex"] == hills] == [
        {"type": "move_robber", "hex": hills}
    ]


# --- option checking -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"board": "huge"},
        {"random_tokens": "yes"},
        {"random_tokens": 1},
        {"friendly_robber": 0},
        "beginner",
    ],
)
def test_unknown_or_bad_options_are_refused(options):
    with pytest.raises(rules.IllegalAction):
        rules.new_game(players=4, seed=1, options=options)


def test_options_are_public_in_the_view():
    state = new_beginner_game(friendly_robber=True, vp_target=12)
    options = rules.view(state, None)["options"]
    assert options["friendly_robber"] is True and options["vp_target"] == 12 and options["board"] == "beginner"
