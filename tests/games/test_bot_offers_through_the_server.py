"""Through the server: bots played by the real bot driver (games.services.bots) offer a person only cards the
person may hold, as the offering seat could tell from the events it saw, and never the same offer twice in a
turn (issue 27, item 4). The person answers through the move service: accept, reject or counter in turn."""

from __future__ import annotations

import itertools

import pytest

import rules
from games import services
from games.models import Game, Move
from rules.ai import CardTracker
from rules.ai import medium as medium_policy
from rules.constants import RESOURCES
from tests.games.helpers import started_game, state_of


def _counts(cards: dict[str, int]) -> list[int]:
    return [cards.get(name, 0) for name in RESOURCES]


def _person_move(state: rules.State, answers: itertools.cycle) -> dict:
    legal = rules.legal_actions(state, 0)
    trade = state.trade
    if trade is not None and {"type": "reject_trade"} in legal:
        answer = next(answers)
        if answer == "counter" and {"type": "accept_trade"} in legal:
            give = list(trade["give"])
            give[next(r for r in range(5) if not trade["get"][r])] += 1
            return {
                "type": "counter_trade",
                "give": dict(zip(RESOURCES, give, strict=True)),
                "get": dict(zip(RESOURCES, trade["get"], strict=True)),
            }
        if answer == "accept" and {"type": "accept_trade"} in legal:
            return {"type": "accept_trade"}
        return {"type": "reject_trade"}
    for kind in ("build_city", "build_settlement", "roll", "end_turn"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


@pytest.mark.django_db(transaction=True)
def test_bots_offer_a_person_only_what_the_person_may_hold(monkeypatch):
    monkeypatch.setattr(medium_policy, "OFFER_RATE", 1.0)  # an offer at every chance: many to check
    game, (alice,) = started_game(humans=1, bots=3, bot_level="medium", scenario="oceania")
    answers = itertools.cycle(["reject", "counter", "accept"])
    for _ in range(400):
        state = state_of(game)
        if state.turn >= 80 or 0 not in rules.to_move(state):
            break
        services.move_submit(game_id=game.pk, user=alice, action=_person_move(state, answers))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    trackers = [CardTracker(seat, 4) for seat in range(4)]
    offers = set()
    to_person = 0
    counter_from = offerer = None
    for move in Move.objects.filter(game=game).order_by("seq"):
        action = move.action
        if counter_from is not None and move.seat == counter_from:
            assert action["type"] in ("confirm_trade", "reject_counter"), action
            counter_from = None
        if action["type"] == "offer_trade":
            offerer = move.seat
        if action["type"] == "offer_trade" and move.seat != 0:
            event = move.events[0]
            key = (move.seat, tuple(_counts(event["give"])), tuple(_counts(event["get"])))
            assert key not in offers, f"offered twice in a turn: {action}"
            offers.add(key)
            if 0 in event["to"]:
                to_person += 1
                for r, n in enumerate(_counts(event["get"])):
                    assert not n or trackers[move.seat].may_hold(0, r, n), f"asks for {RESOURCES[r]}: {action}"
        for tracker in trackers:
            tracker.observe(move.events)
        if any(e["type"] == "turn_ended" for e in move.events):
            offers.clear()
        if move.seat == 0 and action["type"] == "counter_trade":
            counter_from = offerer
    assert to_person >= 3
