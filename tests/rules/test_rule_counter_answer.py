"""RULES.md §5: others answer an offer with accept, reject or counter; the active player completes the trade
with one of them. A counter-offer is answered: confirmed, or turned down (`reject_counter`), which makes that
seat's answer a no; the offer closes once every answer is a no."""

from __future__ import annotations

import pytest

import rules

from .bot_positions import main_phase

OFFER = {"type": "offer_trade", "give": {"ore": 1}, "get": {"grain": 1}}
COUNTER = {"type": "counter_trade", "give": {"ore": 2}, "get": {"grain": 1}}


def _offered(to: list[int]) -> rules.State:
    state = main_phase({0: [0, 0, 0, 0, 3], 1: [0, 0, 0, 2, 0], 2: [0, 0, 0, 2, 0], 3: [0, 0, 0, 2, 0]})
    rules.apply(state, 0, {**OFFER, "to": to})
    return state


def test_each_counter_offer_can_be_turned_down_by_the_active_player_only():
    state = _offered([1, 2, 3])
    rules.apply(state, 1, COUNTER)
    rules.apply(state, 2, {"type": "accept_trade"})
    assert {"type": "reject_counter", "seat": 1} in rules.legal_actions(state, 0)
    assert {"type": "reject_counter", "seat": 2} not in rules.legal_actions(state, 0)  # an acceptance, not a counter
    for seat, action in ((1, {"type": "reject_counter", "seat": 1}), (0, {"type": "reject_counter", "seat": 2})):
        with pytest.raises(rules.IllegalAction):
            rules.apply(state, seat, action)
    events = rules.apply(state, 0, {"type": "reject_counter", "seat": 1})
    assert events == [{"type": "trade_reply", "seat": 0, "reply": "reject", "partner": 1}]
    # Seat 2's acceptance still stands (and seat 3 may still answer): the offer stays open.
    assert state.trade is not None and state.trade["replies"][1] == "reject"
    rules.apply(state, 0, {"type": "confirm_trade", "seat": 2})
    assert state.hands[2][4] == 1 and state.trade is None


def test_an_offer_whose_every_answer_is_a_no_closes():
    state = _offered([1, 3])
    rules.apply(state, 3, {"type": "reject_trade"})
    rules.apply(state, 1, COUNTER)
    events = rules.apply(state, 0, {"type": "reject_counter", "seat": 1})
    assert [e["type"] for e in events] == ["trade_reply", "trade_closed"]
    assert state.trade is None and state.phase == "main"
    assert rules.view(state, 1)["trade"] is None
    assert len(state.offers_this_turn) == 1  # still made this turn: not to be made again
