"""Bots as trading partners: they accept an offer that raises their own position (not only one that completes
their goal), refuse one that lowers it, and never make again, in the same turn, an offer already refused."""

from __future__ import annotations

import random

import rules
from rules.ai import cards, move_for
from rules.ai import heuristics as hx
from rules.ai.medium import decide
from rules.ai.obs import Obs
from rules.constants import RESOURCES

from .bot_positions import main_phase as _main_phase

GRAIN, WOOL = RESOURCES.index("grain"), RESOURCES.index("wool")


def goal_cost(state: rules.State, seat: int) -> tuple[int, ...]:
    return hx.goal(Obs.from_view(rules.view(state, seat)))[1]


def hand_for_goal(hands: dict[int, list[int]], seat: int, extra: list[int]) -> tuple[rules.State, list[int]]:
    """The main phase with `hands`, and the seat holding its goal's cards plus `extra`, once the goal that hand
    points at is stable: the position and that hand."""
    hand = [0] * 5
    for _ in range(5):
        state = _main_phase({**hands, seat: hand})
        cost = goal_cost(state, seat)
        wanted = [cost[r] + extra[r] for r in range(5)]
        if wanted == hand:
            return state, hand
        hand = wanted
    raise AssertionError(f"seat {seat}'s goal does not settle")


def test_a_bot_holding_its_goal_accepts_two_cards_for_a_spare_one():
    offerer = 0
    bot = (offerer + 1) % 4
    state, hand = hand_for_goal({offerer: [0, 0, 2, 0, 0]}, bot, [0, 0, 0, 1, 0])
    assert state.current == offerer
    before = cards.hand_position(hand, goal_cost(state, bot))
    rules.apply(state, offerer, {"type": "offer_trade", "give": {"wool": 2}, "get": {"grain": 1}, "to": [bot]})
    after = [hand[r] - (r == GRAIN) + 2 * (r == WOOL) for r in range(5)]
    assert cards.hand_position(after, goal_cost(state, bot)) > before
    assert move_for(state, bot, "medium")["type"] == "accept_trade"


def test_a_bot_refuses_to_give_a_card_its_goal_needs_for_one_it_does_not():
    offerer = 0
    bot = (offerer + 1) % 4
    state, hand = hand_for_goal({}, bot, [0] * 5)
    cost = goal_cost(state, bot)
    needed = next(r for r in range(5) if cost[r])
    useless = next(r for r in range(5) if not cost[r])
    state = _main_phase({offerer: [int(r == useless) for r in range(5)], bot: hand})
    assert state.current == offerer and goal_cost(state, bot) == cost
    assert hand[needed]
    offer = {"type": "offer_trade", "give": {RESOURCES[useless]: 1}, "get": {RESOURCES[needed]: 1}, "to": [bot]}
    rules.apply(state, offerer, offer)
    assert move_for(state, bot, "medium")["type"] == "reject_trade"


def test_a_refused_offer_is_not_made_again_in_the_same_turn():
    me = 0
    others = {other: [1, 1, 1, 1, 1] for other in range(4) if other != me}
    # One card short of the goal, with one spare card of two kinds (too few for any bank trade): first the goal's
    # cards plus those two spares, for the goal that hand points at.
    cost = goal_cost(_main_phase(others), me)
    for _ in range(5):
        spares = [r for r in range(5) if not cost[r]]
        hand = [cost[r] + int(r in spares[:2]) for r in range(5)]
        pointed = goal_cost(_main_phase({**others, me: hand}), me)
        if pointed == cost:
            break
        cost = pointed
    else:
        raise AssertionError("the goal does not settle")
    short = next(r for r in range(5) if cost[r])
    hand[short] -= 1
    state = _main_phase({**others, me: hand})
    assert state.current == me

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
