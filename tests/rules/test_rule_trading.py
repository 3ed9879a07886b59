"""RULES.md §5: domestic trades (active player only, offer / accept / reject / counter / confirm) and
maritime trades (4:1, 3:1 and 2:1 with a building on the harbour, never a card the bank lacks)."""

from __future__ import annotations

import json

import pytest

import rules
from rules.constants import RESOURCES

from .rule_positions import (
    actions_of,
    assert_refused,
    counts,
    give,
    harbour_vertices,
    kinds,
    lay_road,
    main_phase_game,
    roll_phase_game,
    settle,
)

OFFER = {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}}


def trading_game() -> rules.State:
    state = main_phase_game()
    state = give(state, 0, wool=2, lumber=1)
    state = give(state, 1, ore=2)
    state = give(state, 2, ore=1, grain=1)
    state = give(state, 3, brick=1)  # holds no ore: cannot accept
    return state


# --- domestic ------------------------------------------------------------------------------------------


def test_domestic_offer_to_everyone_waits_for_every_answer():
    state = trading_game()
    events = rules.apply(state, 0, OFFER)
    assert events == [{"type": "trade_offered", "seat": 0, "give": {"wool": 1}, "get": {"ore": 1}, "to": [1, 2, 3]}]
    assert rules.to_move(state) == [1, 2, 3]
    assert kinds(state, 1) == {"accept_trade", "reject_trade"}
    assert kinds(state, 3) == {"reject_trade"}, "a player without the cards asked for cannot accept"
    assert_refused(state, 3, {"type": "accept_trade"})
    assert rules.view(state, None)["trade"]["to"] == [1, 2, 3]


def test_domestic_offer_to_chosen_players_only():
    state = trading_game()
    rules.apply(state, 0, {**OFFER, "to": [2]})
    assert rules.to_move(state) == [2]
    assert rules.legal_actions(state, 1) == []
    assert_refused(state, 1, {"type": "accept_trade"})
    assert_refused(state, 1, {"type": "counter_trade", "give": {"wool": 1}, "get": {"ore": 2}})
    rules.apply(state, 2, {"type": "accept_trade"})
    rules.apply(state, 0, {"type": "confirm_trade", "seat": 2})
    assert state.hands[0] == counts(wool=1, lumber=1, ore=1)
    assert state.hands[2] == counts(wool=1, grain=1)


def test_domestic_answers_accept_reject_counter_and_confirm_with_one_accepter():
    state = trading_game()
    rules.apply(state, 0, OFFER)
    rules.apply(state, 1, {"type": "accept_trade"})
    rules.apply(state, 2, {"type": "accept_trade"})
    rules.apply(state, 3, {"type": "reject_trade"})
    assert rules.to_move(state) == [0]
    confirms = actions_of(state, 0, "confirm_trade")
    assert confirms == [{"type": "confirm_trade", "seat": 1}, {"type": "confirm_trade", "seat": 2}]
    assert_refused(state, 0, {"type": "confirm_trade", "seat": 3})
    events = rules.apply(state, 0, {"type": "confirm_trade", "seat": 2})
    assert events[0]["partner"] == 2
    assert state.hands[0] == counts(wool=1, lumber=1, ore=1)
    assert state.hands[2] == counts(wool=1, grain=1)
    assert state.hands[1] == counts(ore=2), "only one accepter trades"
    assert state.trade is None
    assert_refused(state, 0, {"type": "confirm_trade", "seat": 1})


def test_domestic_counter_offer_can_be_confirmed_on_its_terms():
    state = trading_game()
    rules.apply(state, 0, {**OFFER, "to": [1, 2]})
    # Terms stay in the active player's perspective: seat 1 wants 2 wool for 1 ore.
    rules.apply(state, 1, {"type": "counter_trade", "give": {"wool": 2}, "get": {"ore": 1}})
    rules.apply(state, 2, {"type": "reject_trade"})
    assert rules.view(state, None)["trade"]["replies"]["1"]["reply"] == "counter"
    assert actions_of(state, 0, "confirm_trade") == [{"type": "confirm_trade", "seat": 1}]
    rules.apply(state, 0, {"type": "confirm_trade", "seat": 1})
    assert state.hands[0] == counts(lumber=1, ore=1)
    assert state.hands[1] == counts(wool=2, ore=1)


def test_domestic_counter_must_be_affordable_by_whoever_counters():
    state = trading_game()
    rules.apply(state, 0, OFFER)
    assert_refused(state, 1, {"type": "counter_trade", "give": {"wool": 1}, "get": {"ore": 3}}, "cannot_afford")
    assert_refused(state, 1, {"type": "counter_trade", "give": {"wool": 1}, "get": {"wool": 1}})
    # A counter the active player cannot pay is recorded but cannot be confirmed.
    rules.apply(state, 1, {"type": "counter_trade", "give": {"wool": 3}, "get": {"ore": 1}})
    assert {"type": "confirm_trade", "seat": 1} not in rules.legal_actions(state, 0)
    assert_refused(state, 0, {"type": "confirm_trade", "seat": 1})


def test_domestic_each_player_answers_once():
    state = trading_game()
    rules.apply(state, 0, OFFER)
    rules.apply(state, 1, {"type": "reject_trade"})
    assert_refused(state, 1, {"type": "accept_trade"})
    assert_refused(state, 1, {"type": "counter_trade", "give": {"wool": 1}, "get": {"ore": 2}})


def test_domestic_both_sides_give_at_least_one_card():
    state = trading_game()
    assert_refused(state, 0, {"type": "offer_trade", "give": {}, "get": {"ore": 1}}, "empty_trade")
    assert_refused(state, 0, {"type": "offer_trade", "give": {"wool": 1}, "get": {}}, "empty_trade")
    assert_refused(state, 0, {"type": "offer_trade", "give": {"wool": 0}, "get": {"ore": 1}}, "empty_trade")
    rules.apply(state, 0, OFFER)
    assert_refused(state, 1, {"type": "counter_trade", "give": {}, "get": {"ore": 1}}, "empty_trade")


def test_domestic_no_resource_on_both_sides():
    state = trading_game()
    action = {"type": "offer_trade", "give": {"wool": 1}, "get": {"wool": 1, "ore": 1}}
    assert_refused(state, 0, action, "same_resource_both_sides")
    rules.apply(state, 0, OFFER)
    counter = {"type": "counter_trade", "give": {"wool": 1, "ore": 1}, "get": {"ore": 2}}
    assert_refused(state, 1, counter, "same_resource_both_sides")


def test_domestic_only_the_active_player_trades():
    state = trading_game()
    # Seat 1 may not offer on seat 0's turn, neither to the active player nor to another player.
    assert_refused(state, 1, {"type": "offer_trade", "give": {"ore": 1}, "get": {"wool": 1}})
    assert_refused(state, 1, {"type": "offer_trade", "give": {"ore": 1}, "get": {"grain": 1}, "to": [2]})
    rules.apply(state, 0, OFFER)
    rules.apply(state, 1, {"type": "accept_trade"})
    rules.apply(state, 2, {"type": "accept_trade"})
    # Only the active player completes a trade.
    assert_refused(state, 1, {"type": "confirm_trade", "seat": 2})
    assert_refused(state, 2, {"type": "confirm_trade", "seat": 1})


def test_domestic_trades_only_after_the_roll():
    state = roll_phase_game()
    state = give(state, 0, wool=1)
    state = give(state, 1, ore=1)
    assert_refused(state, 0, OFFER, "not_now")


def test_domestic_offer_only_of_cards_held_and_one_at_a_time():
    state = trading_game()
    assert_refused(state, 0, {"type": "offer_trade", "give": {"wool": 3}, "get": {"ore": 1}}, "cannot_afford")
    rules.apply(state, 0, OFFER)
    assert_refused(state, 0, {"type": "offer_trade", "give": {"lumber": 1}, "get": {"ore": 1}}, "trade_open")


def test_domestic_offer_lapses_when_the_turn_ends():
    state = trading_game()
    rules.apply(state, 0, {**OFFER, "to": [1]})
    rules.apply(state, 1, {"type": "accept_trade"})
    # The active player ends the turn without concluding (the engine asks to withdraw first).
    rules.apply(state, 0, {"type": "cancel_trade"})
    rules.apply(state, 0, {"type": "end_turn"})
    assert state.trade is None
    assert rules.view(state, None)["trade"] is None
    assert_refused(state, 0, {"type": "confirm_trade", "seat": 1})
    assert_refused(state, 1, {"type": "confirm_trade", "seat": 1})
    assert state.hands[0] == counts(wool=2, lumber=1)
    assert state.hands[1] == counts(ore=2)


def test_domestic_cancelling_an_offer_changes_no_cards():
    state = trading_game()
    hands = [list(h) for h in state.hands]
    rules.apply(state, 0, OFFER)
    rules.apply(state, 1, {"type": "accept_trade"})
    rules.apply(state, 0, {"type": "cancel_trade"})
    assert state.trade is None and [list(h) for h in state.hands] == hands
    assert "end_turn" in kinds(state, 0)


MALFORMED_OFFERS = [
    {"type": "offer_trade"},
    {"type": "offer_trade", "give": ["wool"], "get": {"ore": 1}},
    {"type": "offer_trade", "give": "wool", "get": {"ore": 1}},
    {"type": "offer_trade", "give": {"gold": 1}, "get": {"ore": 1}},
    {"type": "offer_trade", "give": {"wool": -1}, "get": {"ore": 1}},
    {"type": "offer_trade", "give": {"wool": 1.0}, "get": {"ore": 1}},
    {"type": "offer_trade", "give": {"wool": True}, "get": {"ore": 1}},
    {"type": "offer_trade", "give": {"wool": "1"}, "get": {"ore": 1}},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 10**9}},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "extra": 1},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": []},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": [0]},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": [4]},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": 1},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": ["1"]},
    {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": [True]},
]


@pytest.mark.parametrize("action", MALFORMED_OFFERS, ids=lambda a: json.dumps(a, default=str)[:60])
def test_domestic_malformed_offer_raises_and_changes_nothing(action):
    state = trading_game()
    error = assert_refused(state, 0, action)
    assert isinstance(error, rules.IllegalAction)
    assert state.trade is None


def test_domestic_malformed_answers_raise_and_change_nothing():
    state = trading_game()
    rules.apply(state, 0, OFFER)
    for seat, action in (
        (1, {"type": "counter_trade", "give": {"wool": 1}}),
        (1, {"type": "counter_trade", "give": {"wool": 1}, "get": {"ore": -2}}),
        (1, {"type": "accept_trade", "seat": 0}),
        (0, {"type": "confirm_trade"}),
        (0, {"type": "confirm_trade", "seat": "1"}),
        (0, {"type": "confirm_trade", "seat": 9}),
        (0, {"type": "accept_trade"}),
    ):
        assert_refused(state, seat, action)


def test_domestic_trade_round_trip_through_json():
    state = trading_game()
    rules.apply(state, 0, OFFER)
    rules.apply(state, 1, {"type": "counter_trade", "give": {"wool": 2}, "get": {"ore": 1}})
    restored = rules.load(json.loads(json.dumps(rules.dump(state))))
    assert rules.dump(restored) == rules.dump(state)
    rules.apply(restored, 2, {"type": "reject_trade"})
    rules.apply(restored, 3, {"type": "reject_trade"})
    rules.apply(restored, 0, {"type": "confirm_trade", "seat": 1})
    assert restored.hands[1] == counts(wool=2, ore=1)


# --- maritime ------------------------------------------------------------------------------------------


def bank_trades(state: rules.State, seat: int, give_name: str) -> set[str]:
    return {a["get"] for a in actions_of(state, seat, "trade_bank") if a["give"] == give_name}


def test_maritime_four_identical_cards_for_one_without_a_harbour():
    state = main_phase_game()
    state = settle(state, 0, 43)  # inland
    state = give(state, 0, lumber=3, brick=4)
    assert bank_trades(state, 0, "lumber") == set()
    assert_refused(state, 0, {"type": "trade_bank", "give": "lumber", "get": "ore"})
    assert bank_trades(state, 0, "brick") == {"lumber", "wool", "grain", "ore"}
    events = rules.apply(state, 0, {"type": "trade_bank", "give": "brick", "get": "ore"})
    assert events[0]["count"] == 4
    assert state.hands[0] == counts(lumber=3, ore=1)
    assert state.bank[1] == 19 and state.bank[4] == 18


def test_harbour_three_to_one_only_with_a_building_on_it():
    state = main_phase_game()
    generic = harbour_vertices(state, "generic")[0]
    topo = state.derived.topo
    next_to = next(n for n in topo.vertex_neighbors[generic[0]] if n not in generic)
    state = give(state, 0, ore=3)
    # A road on the harbour and a settlement one step away are not enough.
    state = settle(state, 0, next_to)
    state = lay_road(state, 0, [next_to, generic[0], generic[1]])
    assert bank_trades(state, 0, "ore") == set()
    assert rules.view(state, 0)["seats"][0]["harbour_rates"]["ore"] == 4
    state = settle(state, 1, generic[1])  # an opponent's building on it gives seat 0 nothing
    assert bank_trades(state, 0, "ore") == set()
    state2 = give(main_phase_game(), 0, ore=3, wool=3)
    state2 = settle(state2, 0, generic[0])
    assert bank_trades(state2, 0, "ore") == {"lumber", "brick", "wool", "grain"}
    assert bank_trades(state2, 0, "wool") == {"lumber", "brick", "grain", "ore"}
    rules.apply(state2, 0, {"type": "trade_bank", "give": "ore", "get": "grain"})
    assert state2.hands[0] == counts(wool=3, grain=1)


def test_harbour_two_to_one_of_its_resource_only():
    state = main_phase_game()
    wool_harbour = harbour_vertices(state, "wool")[0]
    state = settle(state, 0, wool_harbour[1], city=True)  # a city counts as well
    state = give(state, 0, wool=2, ore=3)
    assert bank_trades(state, 0, "wool") == {"lumber", "brick", "grain", "ore"}
    assert bank_trades(state, 0, "ore") == set(), "2:1 wool gives no better rate for ore"
    rates = rules.view(state, 0)["seats"][0]["harbour_rates"]
    assert rates == {"lumber": 4, "brick": 4, "wool": 2, "grain": 4, "ore": 4}
    rules.apply(state, 0, {"type": "trade_bank", "give": "wool", "get": "brick"})
    assert state.hands[0] == counts(brick=1, ore=3)


def test_harbour_rates_combine_generic_and_specific():
    state = main_phase_game()
    state = settle(state, 0, harbour_vertices(state, "generic")[0][0])
    state = settle(state, 0, harbour_vertices(state, "grain")[0][0])
    rates = rules.view(state, 0)["seats"][0]["harbour_rates"]
    assert rates == {"lumber": 3, "brick": 3, "wool": 3, "grain": 2, "ore": 3}


def test_maritime_trade_never_takes_a_card_the_bank_lacks():
    state = main_phase_game()
    state = give(state, 0, lumber=4)
    state = give(state, 1, ore=19)  # the bank's ore is all in seat 1's hand
    assert "ore" not in bank_trades(state, 0, "lumber")
    assert bank_trades(state, 0, "lumber") == {"brick", "wool", "grain"}
    assert_refused(state, 0, {"type": "trade_bank", "give": "lumber", "get": "ore"})
    assert state.hands[0] == counts(lumber=4)


def test_maritime_trade_gives_one_resource_for_another():
    state = main_phase_game()
    state = give(state, 0, lumber=8)
    assert_refused(state, 0, {"type": "trade_bank", "give": "lumber", "get": "lumber"})
    assert_refused(state, 0, {"type": "trade_bank", "give": "lumber", "get": "gold"})
    assert_refused(state, 0, {"type": "trade_bank", "give": "lumber", "get": "ore", "count": 2})
    for name in RESOURCES[1:]:
        assert name in bank_trades(state, 0, "lumber")
