"""`rules.views`: every seat's view and the spectators', with the public facts built once, equal to `view`."""

from __future__ import annotations

import random

import rules


def test_views_equal_each_seats_own_view_through_whole_games():
    checked = 0
    for scenario in rules.scenario_keys():
        players = 3 if scenario.endswith("_3") else 4
        state = rules.new_game(scenario=scenario, players=players, seed=5)
        chance = random.Random(5)
        for _ in range(250):
            every = rules.views(state, layout=False)
            assert len(every) == state.players + 1
            for seat in range(state.players):
                assert every[seat] == rules.view(state, seat, layout=False)
            assert every[-1] == rules.view(state, None, layout=False)
            checked += 1
            if state.winner is not None:
                break
            seat = rules.to_move(state)[0]
            rules.apply(state, seat, chance.choice(rules.legal_actions(state, seat)))
    assert checked > 1000


def test_views_with_the_layout_equal_view():
    state = rules.new_game(scenario="base", players=4, seed=2)
    every = rules.views(state)
    assert every == [*(rules.view(state, seat) for seat in range(4)), rules.view(state, None)]
