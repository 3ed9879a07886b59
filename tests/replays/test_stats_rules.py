"""rules.stats on games played by the engine alone: every card is accounted for (gained - spent - lost = the hand
at the end, per seat and resource), and each figure agrees with what the move log's events say happened."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.constants import RESOURCES, ROAD_COST
from rules.stats import game_statistics, totals
from tests.rules.playouts import random_playout

NOTHING = dict.fromkeys(RESOURCES, 0)


def _played(seed: int, players: int = 4, scenario: str = "base") -> tuple[list, list[list[dict]]]:
    """A random game to its end: its (seat, action) log, and each move's events from a second replay."""
    log = random_playout(rules.new_game(scenario=scenario, players=players, seed=seed), random.Random(seed))
    state = rules.new_game(scenario=scenario, players=players, seed=seed)
    events = [rules.apply(state, seat, action) for seat, action in log]
    return log, events


@pytest.mark.parametrize(
    ("seed", "players", "scenario"), [(1, 4, "base"), (2, 3, "base"), (5, 4, "new_shores"), (6, 4, "oceania")]
)
def test_every_card_is_accounted_for(seed, players, scenario):
    log, _events = _played(seed, players, scenario)
    state = rules.new_game(scenario=scenario, players=players, seed=seed)
    stats = game_statistics(state, log)
    assert stats["moves"] == len(log) and stats["winner"] == state.winner is not None
    for seat in stats["seats"]:
        gained, spent, lost = totals(seat["gained"]), totals(seat["spent"]), totals(seat["lost"])
        assert (
            {r: gained[r] - spent[r] - lost[r] for r in RESOURCES}
            == seat["hand"]
            == dict(zip(RESOURCES, state.hands[seat["seat"]], strict=True))
        )
        # Every change has a cause the engine names: nothing falls into "other".
        assert seat["gained"]["other"] == NOTHING and seat["lost"]["other"] == NOTHING


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), players=st.sampled_from([3, 4]))
def test_every_card_is_accounted_for_in_any_game(seed, players):
    log = random_playout(rules.new_game(players=players, seed=seed), random.Random(seed), offer_rate=0.1)
    state = rules.new_game(players=players, seed=seed)
    stats = game_statistics(state, log)
    for seat in stats["seats"]:
        gained, spent, lost = totals(seat["gained"]), totals(seat["spent"]), totals(seat["lost"])
        assert {r: gained[r] - spent[r] - lost[r] for r in RESOURCES} == seat["hand"]
    assert sum(stats["dice"].values()) == sum(state.dice_history)


def test_each_figure_agrees_with_the_events_of_the_log():
    log, events = _played(3)
    stats = game_statistics(rules.new_game(players=4, seed=3), log)
    for seat in range(4):
        mine = stats["seats"][seat]
        production = dict(NOTHING)
        starting = dict(NOTHING)
        stolen, robbed, discarded = dict(NOTHING), dict(NOTHING), dict(NOTHING)
        roads = 0
        bought = 0
        for (mover, action), happened in zip(log, events, strict=True):
            for event in happened:
                kind = event["type"]
                if kind == "produced":
                    for name, n in event["gains"].get(str(seat), {}).items():
                        production[name] += n
                elif kind == "starting_resources" and event["seat"] == seat:
                    for name, n in event["resources"].items():
                        starting[name] += n
                elif kind == "stolen_card" and seat in (event["seat"], event["victim"]):
                    (stolen if event["seat"] == seat else robbed)[event["resource"]] += 1
                elif kind == "discarded" and event["seat"] == seat:
                    for name, n in event["cards"].items():
                        discarded[name] += n
                elif kind == "bought_development" and event["seat"] == seat:
                    bought += 1
            if mover == seat and action["type"] == "build_road" and any(e["type"] == "built_road" for e in happened):
                roads += 1
        assert mine["gained"]["production"] == production
        assert mine["gained"]["starting"] == starting
        assert mine["gained"]["steal"] == stolen and mine["lost"]["robber"] == robbed
        assert mine["lost"]["discard"] == discarded
        assert sum(mine["development_bought"].values()) == bought
        # Roads bought in the main phase: 2 set-up roads and Road Building's are free.
        free = 2 + 2 * mine["development_played"]["road_building"]
        assert mine["spent"]["road"]["lumber"] == mine["spent"]["road"]["brick"] >= (roads - free) * ROAD_COST[0]
    assert stats["dice"] == {
        str(n): sum(1 for h in events for e in h if e["type"] == "rolled" and sum(e["dice"]) == n) for n in range(2, 13)
    }


def test_a_hand_checked_set_up():
    """Three players on the beginner board place their set-up by the first legal choice: the starting cards are
    the terrains around each second settlement, counted here from the board itself."""
    options = {"board": "beginner", "seat_order": "fixed"}
    state = rules.new_game(players=3, seed=11, options=options)
    log = []
    second: dict[int, int] = {}
    while state.phase.startswith("setup"):
        seat = rules.to_move(state)[0]
        action = rules.legal_actions(state, seat)[0]
        if action["type"] == "build_settlement" and state.setup_index >= 3:
            second[seat] = action["vertex"]
        rules.apply(state, seat, action)
        log.append((seat, action))
    stats = game_statistics(rules.new_game(players=3, seed=11, options=options), log)
    topo = state.derived.topo
    for seat, vertex in second.items():
        expected = dict(NOTHING)
        for h in topo.vertex_hexes[vertex]:
            if state.terrain[h] < 5:
                expected[RESOURCES[state.terrain[h]]] += 1
        assert stats["seats"][seat]["gained"]["starting"] == expected == stats["seats"][seat]["hand"]
        assert sum(totals(stats["seats"][seat]["spent"]).values()) == 0
    # One entry after the set-up (turn 0): two settlements, two points each.
    assert stats["victory_points"] == [{"turn": 0, "move": 12, "points": [2, 2, 2]}]
    assert stats["turns"] == 1 and stats["longest_road"] == [] and stats["largest_army"] == []
