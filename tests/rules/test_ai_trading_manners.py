"""Bots trade like considerate people (issue 27, items 4 and 5). Medium and hard bots play whole games against
a scripted person on the base game and Oceania; the person accepts, refuses or counters what it is offered.
Every offer to the person asks only for cards it may hold, as the offering seat's own tracker (fed the events
that seat saw) can tell; none is made twice in a turn; a resource the person refused is not asked for again
that turn; at most one offer waits for the person's answer at a time; and a counter-offer is answered by
accepting or rejecting it, never by withdrawing the offer."""

from __future__ import annotations

import json
import random
from contextlib import contextmanager
from typing import Any

import pytest

import rules
from rules.ai import CardTracker, HardBot, MediumBot, move_for
from rules.ai import medium as medium_module
from rules.ai.easy import EasyBot
from rules.constants import RESOURCES

from .bot_positions import main_phase

PERSON = 2
Action = dict[str, Any]


def _counts(cards: dict[str, int]) -> list[int]:
    return [cards.get(name, 0) for name in RESOURCES]


def _named(counts: list[int]) -> dict[str, int]:
    return {name: n for name, n in zip(RESOURCES, counts, strict=True) if n}


class Person:
    """A person at the table: answers offers at random (a third each: accept, reject, counter asking one card
    more), and otherwise plays a plain greedy game (no offers of its own)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.greedy = EasyBot(seed=seed, mistakes=0.0)

    def choose(self, state: rules.State, legal: list[Action]) -> Action:
        view = rules.view(state, PERSON)
        trade = view["trade"]
        if trade is not None and {"type": "reject_trade"} in legal:
            draw = self.rng.random()
            if {"type": "accept_trade"} in legal and draw < 1 / 3:
                return {"type": "accept_trade"}
            if {"type": "accept_trade"} in legal and draw < 2 / 3:
                give, get = _counts(trade["give"]), _counts(trade["get"])
                extra = [r for r in range(5) if not get[r]]
                give[self.rng.choice(extra)] += 1  # one card more from the offering player
                return {"type": "counter_trade", "give": _named(give), "get": _named(get)}
            return {"type": "reject_trade"}
        return self.greedy.choose(view, legal)


class Judge:
    """Watches the game as the rules for considerate trading say, from each bot seat's own view."""

    def __init__(self, state: rules.State) -> None:
        self.trackers = [CardTracker(seat, state.players) for seat in range(state.players)]
        self.offers_this_turn: set[tuple] = set()
        self.refused: set[int] = set()  # resources the person refused to give this turn
        self.waiting = False  # an offer to the person awaits its answer
        self.counter_from: int | None = None  # the offering seat owes an answer to the person's counter-offer
        self.offers_to_person = 0
        self.counters_answered: list[str] = []
        self.asked = [0] * 5  # what the offer awaiting the person's answer asks of it

    def before(self, state: rules.State, seat: int, action: Action) -> None:
        kind = action["type"]
        if self.counter_from is not None and seat == self.counter_from:
            assert kind in ("confirm_trade", "reject_counter"), f"a counter-offer answered by {kind}"
            if kind == "reject_counter":
                assert action["seat"] == PERSON
            self.counters_answered.append(kind if action["seat"] == PERSON else "confirm_another")
            self.counter_from = None
        if kind != "offer_trade":
            return
        give, get = _counts(action["give"]), _counts(action["get"])
        key = (seat, tuple(give), tuple(get))
        assert key not in self.offers_this_turn, f"the same offer twice in turn {state.turn}: {action}"
        self.offers_this_turn.add(key)
        if PERSON not in action.get("to", [s for s in range(state.players) if s != seat]):
            return
        assert not self.waiting, "a second offer to the person while one awaits its answer"
        tracker = self.trackers[seat]
        view = rules.view(state, seat)
        tracker.sync([s["resource_count"] for s in view["seats"]], _counts(view["bank"]), state.hands[seat])
        for r in range(5):
            if get[r]:
                assert tracker.may_hold(PERSON, r, get[r]), f"asks the person for {RESOURCES[r]} it cannot hold"
                assert r not in self.refused, f"asks the person again for {RESOURCES[r]}, refused this turn"
        self.offers_to_person += 1

    def after(self, state: rules.State, events: list[dict]) -> None:
        for tracker in self.trackers:
            tracker.observe(events)
            for other in range(state.players):  # what a tracker concludes is always true, under heavy trading too
                for r in range(5):
                    assert tracker.low[other][r] <= state.hands[other][r] <= tracker.high[other][r]
        for e in events:
            if e["type"] == "trade_offered" and PERSON in e["to"]:
                self.waiting = True
                self.asked = _counts(e["get"])
            elif e["type"] == "trade_reply" and e["seat"] == PERSON:
                self.waiting = False
                if e["reply"] == "reject":
                    self.refused.update(r for r in range(5) if self.asked[r])
                if e["reply"] == "counter":
                    self.counter_from = state.current  # only the player whose turn it is makes offers
            elif e["type"] in ("trade_cancelled", "trade_closed", "traded"):
                self.waiting = False
            elif e["type"] == "turn_ended":
                self.offers_this_turn.clear()
                self.refused.clear()
                self.waiting = False


def play(scenario: str, level: str, seed: int, turns: int, fresh: bool = False) -> Judge:
    """Play with bots kept for the game, or (`fresh`) with a fresh bot per move handed the stored events so far,
    as the server plays."""
    state = rules.new_game(scenario, 4, seed=seed)
    history: list[list[dict]] = []
    bots: list[Any] = []
    for seat in range(4):
        tracker = CardTracker(seat, 4)
        if level == "hard":
            bots.append(HardBot(seed=seed + seat, time_limit=2.0, max_iterations=2, horizon=1, tracker=tracker))
        else:
            bots.append(MediumBot(seed=seed + seat, tracker=tracker))
    person = Person(seed)
    judge = Judge(state)
    while rules.to_move(state) and state.turn < turns:
        seat = rules.to_move(state)[0]
        legal = rules.legal_actions(state, seat)
        if seat == PERSON:
            action = person.choose(state, legal)
        elif fresh:
            action = move_for(state, seat, level, seed=seed + seat, history=history)
            judge.before(state, seat, action)
        else:
            action = bots[seat].choose(rules.view(state, seat), legal)
            judge.before(state, seat, action)
        events = rules.apply(state, seat, action)
        history.append(json.loads(json.dumps(events)))  # as the server stores them
        judge.after(state, events)
        for bot in bots:
            bot.observe(events)
    return judge


@contextmanager
def eager_offers():
    """Bots offer whenever an offer makes sense (not a third of the time): many more offers to watch."""
    rate = medium_module.OFFER_RATE
    medium_module.OFFER_RATE = 1.0
    try:
        yield
    finally:
        medium_module.OFFER_RATE = rate


@pytest.mark.parametrize("scenario", ["base", "oceania"])
def test_medium_bots_trade_considerately(scenario):
    offers = 0
    answers: list[str] = []
    with eager_offers():
        for seed in range(1, 7):
            judge = play(scenario, "medium", seed, turns=160)
            offers += judge.offers_to_person
            answers += judge.counters_answered
    assert offers >= 20  # the games did put the manners to the test
    # The person's counter-offers were taken when they helped the bot and turned down when they did not.
    assert "confirm_trade" in answers and "reject_counter" in answers


@pytest.mark.parametrize("scenario", ["base", "oceania"])
def test_hard_bots_trade_considerately(scenario):
    offers = counters = 0
    with eager_offers():
        for seed in range(1, 3):
            judge = play(scenario, "hard", seed, turns=60)
            offers += judge.offers_to_person
            counters += len(judge.counters_answered)
    assert offers >= 3 and counters >= 1


def test_a_fresh_bot_per_move_fed_the_stored_events_trades_considerately():
    offers = 0
    with eager_offers():
        for seed in (1, 2):
            offers += play("oceania", "medium", seed, turns=120, fresh=True).offers_to_person
    assert offers >= 5


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_counter_offer_gets_an_answer_not_a_withdrawal(level):
    """Through the engine and a fresh bot per move, as the server plays: the bot offers, the person counters;
    a generous counter is accepted, a greedy one rejected (the offer then closes: nobody else was asked)."""
    offerer = 0
    hands = {offerer: [1, 1, 1, 0, 2], PERSON: [2, 0, 0, 2, 0]}  # lumber, brick, wool, grain, ore
    answers = {}
    for name, counter in {
        "generous": {"give": {"ore": 1}, "get": {"grain": 1, "lumber": 1}},
        "greedy": {"give": {"ore": 2, "wool": 1}, "get": {"grain": 1}},
    }.items():
        state = main_phase(hands)
        assert state.current == offerer
        offer = {"type": "offer_trade", "give": {"ore": 1}, "get": {"grain": 1}, "to": [PERSON]}
        rules.apply(state, offerer, offer)
        rules.apply(state, PERSON, {"type": "counter_trade", **counter})
        answer = move_for(state, offerer, level, seed=1, time_limit=0.05)
        answers[name] = answer
        rules.apply(state, offerer, answer)
        if answer["type"] == "reject_counter":
            assert state.trade is None  # the only answer was a no: the offer has run its course
    assert answers["generous"] == {"type": "confirm_trade", "seat": PERSON}
    assert answers["greedy"] == {"type": "reject_counter", "seat": PERSON}
