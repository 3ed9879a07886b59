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


def test_views_equal_view_once_the_game_is_over():
    """Over, every seat's victory points and cards are public: in the spectators' view, and in each seat's own."""
    state = rules.new_game(scenario="base", players=4, seed=0)
    chance = random.Random(0)
    for _ in range(20_000):
        if state.winner is not None:
            break
        seat = rules.to_move(state)[0]
        rules.apply(state, seat, chance.choice(rules.legal_actions(state, seat)))
    assert state.winner is not None
    every = rules.views(state, layout=False)
    assert every == [*(rules.view(state, seat, layout=False) for seat in range(4)), rules.view(state, None, False)]
    assert all("victory_points" in facts for facts in every[-1]["seats"])


def test_the_layout_fingerprint_is_the_crc_of_the_layouts_text():
    """`layout_key` is remembered per layout; it stays the CRC of the text of the layout as the state holds it, as
    the layout changes in play (fog revealed, tokens placed) and in a state loaded from its snapshot."""
    import zlib

    import orjson

    from rules.view import layout_key

    def made_again(state) -> str:
        return format(zlib.crc32(repr((state.terrain, state.tokens, state.harbours)).encode()), "08x")

    keys = set()
    for scenario in rules.scenario_keys():
        state = rules.new_game(scenario=scenario, players=3 if scenario.endswith("_3") else 4, seed=1)
        chance = random.Random(1)
        for _ in range(300):
            assert layout_key(state) == made_again(state)
            keys.add(layout_key(state))
            if state.winner is not None:
                break
            seat = rules.to_move(state)[0]
            rules.apply(state, seat, chance.choice(rules.legal_actions(state, seat)))
        loaded = rules.load(orjson.loads(orjson.dumps(rules.dump(state))))
        assert layout_key(loaded) == made_again(loaded) == layout_key(state)
    assert len(keys) > len(rules.scenario_keys())  # some layouts changed in play
