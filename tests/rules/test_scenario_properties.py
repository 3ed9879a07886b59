"""The random-playout properties of the base game, over every Seafarers map: conservation, piece limits,
VP recount including tokens, replay equals dump, and no hidden hex, token or card in any view."""

from __future__ import annotations

import json
import random

import pytest

import rules
from rules.scenarios import load_map, map_keys

from .playouts import random_playout, replay
from .test_properties import check_invariants, check_view_leaks_nothing

CASES = [(key, players) for key in map_keys() for players in load_map(key)["players"]]


def check_fog_stays_hidden(state: rules.State) -> None:
    for viewer in [None, *range(state.players)]:
        view = rules.view(state, viewer)
        for h in view["board"]["hexes"]:
            if h["terrain"] == "fog":
                assert h["token"] is None and h["pips"] == 0
        text = json.dumps(view)
        assert "hidden_terrain" not in text and "hidden_tokens" not in text and '"token_bag"' not in text


@pytest.mark.parametrize(("key", "players"), CASES)
def test_random_games_on_every_map_keep_every_invariant(key, players):
    for seed in range(2):
        state = rules.new_game(scenario=key, players=players, seed=seed)
        steps = [0]

        def on_step(s: rules.State, steps: list[int] = steps) -> None:
            steps[0] += 1
            if steps[0] % 3 == 0:
                check_invariants(s)
            if steps[0] % 40 == 0:
                check_view_leaks_nothing(s)
                check_fog_stays_hidden(s)

        log = random_playout(state, random.Random(seed), on_step=on_step)
        assert state.winner is not None, f"{key} seed {seed} did not finish"
        assert rules.victory_points(state, state.winner) >= state.vp_target
        check_view_leaks_nothing(state)
        again = replay(key, players, seed, {}, json.loads(json.dumps(log)))
        assert rules.dump(again) == rules.dump(state)


@pytest.mark.parametrize(("key", "players"), CASES)
def test_every_map_accepts_its_player_counts_and_refuses_others(key, players):
    assert rules.new_game(scenario=key, players=players, seed=1).players == players
    for wrong in {2, 3, 4, 5, 6} - set(load_map(key)["players"]):
        with pytest.raises(rules.IllegalAction):
            rules.new_game(scenario=key, players=wrong, seed=1)


def test_scenario_families_pick_the_map_for_the_player_count():
    families = {load_map(k).get("family", k) for k in map_keys()}
    for family in families:
        for players in (3, 4):
            try:
                state = rules.new_game(scenario=family, players=players, seed=1)
            except rules.IllegalAction:
                continue
            assert players in load_map(state.scenario)["players"]
