"""The hard bot's planning and position value (issue 43): its search weighs the bank trade toward a city, and
the refitted value counts cities, the cards held by kind and the special cards as it learnt them."""

from __future__ import annotations

import random

import rules
from rules.ai import hard, value, value_weights
from rules.ai import heuristics as hx
from rules.ai.medium import decide, observe_view
from rules.ai.obs import Obs

from .bot_positions import after_set_up, main_phase


def _obs(state: rules.State, seat: int = 0) -> Obs:
    return observe_view(rules.view(state, seat), None)


def test_the_search_tries_the_bank_trade_toward_a_city() -> None:
    # Five lumber, two grain, two ore: one ore short of a city, four lumber to spare at the bank.
    state = main_phase({0: [5, 0, 0, 2, 2]})
    o = _obs(state)
    legal = rules.legal_actions(state, 0)
    trade = hard._trade_toward(o, hx.group(legal)["trade_bank"], hard.CITY_COST)
    assert trade == {"type": "trade_bank", "give": "lumber", "get": "ore"}
    base = decide(o, legal, random.Random(1))
    assert trade in hard.candidates(o, legal, base, 4)


def test_a_trade_toward_a_plan_never_gives_what_the_plan_needs() -> None:
    # Four ore and one grain: trading ore away would leave the city further off, and nothing else is spare.
    state = main_phase({0: [0, 0, 0, 1, 4]})
    o = _obs(state)
    trades = hx.group(rules.legal_actions(state, 0)).get("trade_bank", [])
    assert hard._trade_toward(o, trades, hard.CITY_COST) is None


def test_value_has_one_weight_per_feature_and_prefers_a_city() -> None:
    assert len(value_weights.LINEAR) == len(value.FEATURES)
    assert all(len(unit) == len(value.FEATURES) for unit in value_weights.HIDDEN)
    assert len(value_weights.HIDDEN_BIAS) == len(value_weights.OUTPUT) == len(value_weights.HIDDEN)
    description = {**after_set_up(), "phase": "main", "dice": [3, 3]}
    before = value.win_chances(rules.position(description))[0]
    seat = description["seats"][0]
    upgraded = {**seat, "settlements": seat["settlements"][1:], "cities": seat["settlements"][:1]}
    seats = [upgraded, *description["seats"][1:]]  # the same position with one settlement upgraded
    assert value.win_chances(rules.position({**description, "seats": seats}))[0] > before


def test_value_tells_knights_from_progress_cards() -> None:
    knight, progress = value.FEATURES.index("knights held"), value.FEATURES.index("progress cards held")
    description = {**after_set_up(), "phase": "main", "dice": [3, 3]}
    seat = description["seats"][0]
    cards = {**seat["development"], "knight": 1, "year_of_plenty": 1}
    seats = [{**seat, "development": cards}, *description["seats"][1:]]
    deck = list(description["deck"])
    deck.remove("knight")
    deck.remove("year_of_plenty")  # the two cards came out of the deck
    state = rules.position({**description, "seats": seats, "deck": deck})
    row = value.features(state, 0, 0.3)
    assert row[knight] == 1 and row[progress] == 1


def test_the_hard_bot_saves_for_a_road_toward_a_spot_before_a_card() -> None:
    # A card each of the five: a road (toward a spot two edges out: none is ready after the set-up) and a
    # development card are both paid for. Medium takes the road; the hard bot's card goal alone (1.8) would
    # take the card whenever the spot is modest, its road goal (2.0) keeps the road first, as medium does.
    state = main_phase({0: [1, 1, 1, 1, 1]})
    o = _obs(state)
    assert not hx.my_settlement_spots(o)
    _, reach = hx._best_extension(o)
    assert reach >= 1.5
    assert hx.goal(o)[0] == "road"
    o = _obs(state)
    o.card_goal = hard.CARD_GOAL
    assert hx.goal(o)[0] == ("road" if 1.2 + 0.08 * reach > hard.CARD_GOAL else "development")
    o = _obs(state)
    o.card_goal, o.road_goal = hard.CARD_GOAL, hard.ROAD_GOAL
    assert hx.goal(o)[0] == "road"
