"""The bots' card tracker: what one seat may conclude of the others' hands from the events it has seen, and
never more (a steal between two others stays unseen; a hidden event is never read)."""

from __future__ import annotations

import random

import pytest

import rules
from rules.ai import CardTracker, MediumBot, choose_for
from rules.constants import RESOURCES

LUMBER, BRICK, WOOL, GRAIN, ORE = (RESOURCES.index(name) for name in ("lumber", "brick", "wool", "grain", "ore"))


def scripted_game() -> list[list[dict]]:
    """The moves of a four-seat game as stored (hidden events included), seen from seat 0."""
    return [
        [{"type": "starting_resources", "seat": 1, "resources": {"lumber": 1, "brick": 1, "grain": 1}}],
        [{"type": "starting_resources", "seat": 2, "resources": {"ore": 2, "wool": 1}}],
        [{"type": "rolled", "seat": 1, "dice": [2, 3]}, {"type": "produced", "gains": {"1": {"lumber": 2}}}],
        # Seat 1 pays brick and lumber: lumber and grain left, no brick at all.
        [{"type": "built_road", "seat": 1, "edge": 5}],
        [{"type": "turn_ended", "seat": 1, "next": 2}],
        [{"type": "rolled", "seat": 2, "dice": [1, 3]}, {"type": "produced", "gains": {"2": {"grain": 1}}}],
        # A steal between two others: seat 0 does not see the card (the stored event names it for them).
        [
            {"type": "moved_robber", "seat": 2, "hex": 3},
            {"type": "stole", "seat": 2, "victim": 1},
            {"type": "stolen_card", "seat": 2, "victim": 1, "resource": "grain", "audience": [2, 1]},
        ],
        # Seat 2 pays wool, grain and ore: its only wool is gone.
        [{"type": "bought_development", "seat": 2}],
        [{"type": "trade_offered", "seat": 2, "give": {"ore": 1}, "get": {"brick": 1}, "to": [0, 3]}],
        [{"type": "trade_reply", "seat": 3, "reply": "reject"}],
        [{"type": "trade_reply", "seat": 0, "reply": "reject"}],
        [{"type": "trade_cancelled", "seat": 2}],
    ]


def test_the_tracker_concludes_what_the_public_events_show():
    tracker = CardTracker.from_history(0, 4, scripted_game())
    # Seat 1: lumber 3, brick 1, grain 1 gained; a road paid; one card of lumber or grain stolen.
    assert tracker.count[1] == 2
    assert not tracker.may_hold(1, BRICK) and not tracker.may_hold(1, WOOL) and not tracker.may_hold(1, ORE)
    assert tracker.may_hold(1, LUMBER) and tracker.may_hold(1, GRAIN)
    assert tracker.holds(1, LUMBER) == 1  # two lumber before the steal: at least one is left
    assert tracker.holds(1, GRAIN) == 0
    # Seat 2: ore 2, wool 1, grain 1, the stolen card (lumber or grain, unseen), then a development card.
    assert tracker.count[2] == 2
    assert tracker.holds(2, ORE) == 1 and tracker.may_hold(2, ORE)
    assert not tracker.may_hold(2, WOOL) and not tracker.may_hold(2, BRICK)
    assert tracker.may_hold(2, LUMBER) and tracker.may_hold(2, GRAIN)
    # The card seat 0 did not see is not known: the tracker never read the hidden event.
    assert tracker.holds(2, GRAIN) == 0 and tracker.holds(2, LUMBER) == 0
    # Seat 3 got nothing at all.
    assert tracker.count[3] == 0 and not any(tracker.may_hold(3, r) for r in range(5))
    # Refusals last the turn: seat 3 refused to give brick.
    assert tracker.refuses(3, BRICK) and not tracker.refuses(3, ORE)
    tracker.observe([{"type": "turn_ended", "seat": 2, "next": 3}])
    assert not tracker.refuses(3, BRICK)


def test_the_tracker_reads_only_what_the_seat_may_see():
    stored = scripted_game()
    as_stored = CardTracker.from_history(0, 4, stored)
    as_shown = CardTracker.from_history(0, 4, [rules.events_for(events, 0) for events in stored])
    assert (as_stored.low, as_stored.high, as_stored.count) == (as_shown.low, as_shown.high, as_shown.count)
    # The thief knows the card it took.
    thief = CardTracker.from_history(2, 4, stored)
    assert thief.holds(1, LUMBER) == 2 and not thief.may_hold(1, GRAIN)


def test_monopoly_trades_discards_and_counts():
    tracker = CardTracker.from_history(0, 4, scripted_game())
    tracker.observe(
        [
            {"type": "turn_ended", "seat": 2, "next": 3},
            {"type": "played_year_of_plenty", "seat": 3, "resources": ["ore", "wool"]},
            {"type": "played_monopoly", "seat": 3, "resource": "ore", "taken": {"2": 1}},
        ]
    )
    assert not tracker.may_hold(2, ORE) and not tracker.may_hold(1, ORE)
    assert tracker.holds(3, ORE) == 2 and tracker.holds(3, WOOL) == 1
    tracker.observe([{"type": "traded", "seat": 3, "partner": 1, "give": {"wool": 1}, "get": {"lumber": 1}}])
    assert tracker.holds(1, WOOL) == 1 and tracker.holds(3, LUMBER) == 1 and not tracker.may_hold(3, WOOL)
    tracker.observe([{"type": "discarded", "seat": 3, "cards": {"ore": 2}, "remaining": 0}])
    assert not tracker.may_hold(3, ORE)
    assert tracker.count[3] == 1 and tracker.holds(3, LUMBER) == 1
    # A count it cannot explain (a move it never saw): it forgets that hand rather than conclude wrongly; the
    # bank bounds every hand (here all the brick is in the bank).
    tracker.sync(counts=[0, 2, 2, 4], bank=[10, 19, 10, 10, 10], hand=[0] * 5)
    assert tracker.low[3] == [0] * 5 and tracker.count[3] == 4
    assert tracker.may_hold(3, LUMBER) and tracker.may_hold(3, ORE) and not tracker.may_hold(3, BRICK)


@pytest.mark.parametrize("scenario", ["base", "oceania"])
def test_the_tracker_never_concludes_wrongly_over_whole_games(scenario):
    """Bounds hold against the true hands after every move of whole games played by medium bots (who trade
    with each other), seen from every seat; and they are sharp often enough to matter."""
    state = rules.new_game(scenario, 4, seed=5)
    bots = [MediumBot(seed=s) for s in range(4)]
    trackers = [CardTracker(seat, 4) for seat in range(4)]
    exact = checked = 0
    rng = random.Random(3)
    for _ in range(6000):
        seats = rules.to_move(state)
        if not seats:
            break
        seat = seats[0]
        events = rules.apply(state, seat, choose_for(state, seat, bots[seat]))
        for tracker in trackers:
            tracker.observe(events)
        tracker = trackers[rng.randrange(4)]
        view = rules.view(state, tracker.me)
        bank = [view["bank"][name] for name in RESOURCES]
        tracker.sync([s["resource_count"] for s in view["seats"]], bank, state.hands[tracker.me])
        for other in range(4):
            if other == tracker.me:
                continue
            for r in range(5):
                held = state.hands[other][r]
                assert tracker.low[other][r] <= held <= tracker.high[other][r], (scenario, other, r)
                checked += 1
                exact += tracker.low[other][r] == tracker.high[other][r]
    assert state.phase == "game_over"
    assert exact > 0.6 * checked
