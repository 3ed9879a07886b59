"""Bots as trading partners: they accept an offer that raises their own position (not only one that completes
their goal), refuse one that lowers it, and never make again, in the same turn, an offer already refused."""

from __future__ import annotations

import random

import rules
from rules.ai import heuristics as hx
from rules.ai import move_for
from rules.ai.medium import decide
from rules.ai.obs import Obs
from rules.bots import RandomBot
from rules.constants import RESOURCES

GRAIN, WOOL = RESOURCES.index("grain"), RESOURCES.index("wool")


def main_phase(seed: int = 5) -> rules.State:
    """A four-player game just after the first roll (no 7), played by random bots that never trade."""
    for attempt in range(50):
        state = rules.new_game(players=4, seed=seed + attempt)
        bots = [RandomBot(seed=s) for s in range(4)]
        while state.phase != "main" and state.turn < 2:
            seat = rules.to_move(state)[0]
            rules.apply(state, seat, bots[seat].choose(state, seat, rules.legal_actions(state, seat)))
        if state.phase == "main" and state.trade is None:
            return state
    raise AssertionError("no main phase reached")


def goal_cost(state: rules.State, seat: int) -> tuple[int, ...]:
    return hx.goal(Obs.from_view(rules.view(state, seat)))[1]


def give_hand(state: rules.State, seat: int, hand: list[int]) -> None:
    for r in range(5):
        state.bank[r] += state.hands[seat][r] - hand[r]
    state.hands[seat] = list(hand)


def hand_for_goal(state: rules.State, seat: int, extra: list[int]) -> list[int]:
    """The seat's goal's cards plus `extra`, once the goal that hand points at is stable."""
    hand = [0] * 5
    for _ in range(5):
        cost = goal_cost(state, seat)
        wanted = [cost[r] + extra[r] for r in range(5)]
        if wanted == hand:
            return hand
        hand = wanted
        give_hand(state, seat, hand)
    return hand


def test_a_bot_holding_its_goal_accepts_two_cards_for_a_spare_one():
    state = main_phase()
    offerer = state.current
    bot = (offerer + 1) % 4
    give_hand(state, offerer, [0, 0, 2, 0, 0])
    hand = hand_for_goal(state, bot, [0, 0, 0, 1, 0])
    before = hx.hand_position(hand, goal_cost(state, bot))
    rules.apply(state, offerer, {"type": "offer_trade", "give": {"wool": 2}, "get": {"grain": 1}, "to": [bot]})
    after = [hand[r] - (r == GRAIN) + 2 * (r == WOOL) for r in range(5)]
    assert hx.hand_position(after, goal_cost(state, bot)) > before
    assert move_for(state, bot, "medium")["type"] == "accept_trade"


def test_a_bot_refuses_to_give_a_card_its_goal_needs_for_one_it_does_not():
    state = main_phase()
    offerer = state.current
    bot = (offerer + 1) % 4
    hand = hand_for_goal(state, bot, [0] * 5)
    cost = goal_cost(state, bot)
    needed = next(r for r in range(5) if cost[r])
    useless = next(r for r in range(5) if not cost[r])
    give_hand(state, offerer, [int(r == useless) for r in range(5)])
    assert hand[needed]
    offer = {"type": "offer_trade", "give": {RESOURCES[useless]: 1}, "get": {RESOURCES[needed]: 1}, "to": [bot]}
    rules.apply(state, offerer, offer)
    assert move_for(state, bot, "medium")["type"] == "reject_trade"


def test_a_refused_offer_is_not_made_again_in_the_same_turn():
    state = main_phase()
    me = state.current
    cost = goal_cost(state, me)
    short = next(r for r in range(5) if cost[r])
    spares = [r for r in range(5) if not cost[r]]
    # One card short of the goal, with one spare card of two kinds (too few for any bank trade).
    hand = hand_for_goal(state, me, [int(r in spares[:2]) for r in range(5)])
    hand[short] -= 1
    give_hand(state, me, hand)
    for other in range(4):
        if other != me:
            give_hand(state, other, [1, 1, 1, 1, 1])
    def refused(offer: dict) -> None:
        # The offer goes through the engine; everyone refuses it and its maker withdraws it.
        rules.apply(state, me, offer)
        for other in range(4):
            if other != me:
                rules.apply(state, other, {"type": "reject_trade"})
        rules.apply(state, me, {"type": "cancel_trade"})

    def bot_choice() -> dict:
        view = rules.view(state, me)
        return decide(Obs.from_view(view), rules.legal_actions(state, me), random.Random(1), offer_ok=True)

    first = bot_choice()
    assert first["type"] == "offer_trade" and first["get"] == {RESOURCES[short]: 1}
    refused(first)
    # The engine lists this turn's offers in the view: the bot offers its other spare card instead.
    assert rules.view(state, (me + 1) % 4)["offers_this_turn"] == [
        {"from": me, "give": _all(first["give"]), "get": _all(first["get"])}
    ]
    second = bot_choice()
    assert second["type"] == "offer_trade" and second["give"] != first["give"]
    refused(second)
    # Both refused: no third offer this turn, whether the bot reads its view or the whole state.
    assert bot_choice()["type"] != "offer_trade"
    assert move_for(state, me, "medium")["type"] != "offer_trade"
    # The list empties when the turn ends, and survives a save and load in between.
    assert len(rules.load(rules.dump(state)).offers_this_turn) == 2
    rules.apply(state, me, {"type": "end_turn"})
    assert state.offers_this_turn == [] and rules.view(state, me)["offers_this_turn"] == []


def _all(cards: dict[str, int]) -> dict[str, int]:
    return {name: cards.get(name, 0) for name in RESOURCES}
