"""Live games may have a turn clock: chosen at creation, shown to all, and when it runs out the game's timeout
policy plays the whole turn, so one idle person never stops the table."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

import rules
from games import outbox, services
from games.live import frames
from games.models import Game, Move
from infra.errors import GameError
from tests.factories import UserFactory
from tests.games.helpers import state_of


def _live_game(turn_seconds: int, policy: str = "bot") -> tuple[Game, list]:
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(
        creator=alice,
        seat_count=3,
        bot_seats=[2],
        options={"seat_order": "fixed"},
        turn_seconds=30,
        timeout_policy=policy,
    )
    services.seat_join(game_id=game.pk, user=bob)
    Game.objects.filter(pk=game.pk).update(turn_seconds=turn_seconds)  # shorter than a person may choose
    services.game_start(game_id=game.pk, user=alice)
    game.refresh_from_db()
    return game, [alice, bob]


@pytest.mark.django_db
def test_a_turn_clock_is_chosen_at_creation_within_limits():
    alice = UserFactory()
    for wrong in (5, 10_000, "60"):
        with pytest.raises(GameError) as refused:
            services.game_create(creator=alice, turn_seconds=wrong)
        assert refused.value.code == "bad_turn_time"
    game = services.game_create(creator=alice, turn_seconds=120)
    assert game.turn_seconds == 120


@pytest.mark.django_db(transaction=True)
def test_a_live_turn_clock_runs_out_and_the_policy_plays_the_whole_turn(monkeypatch):
    sent = []
    original = outbox._send_all
    monkeypatch.setattr(outbox, "_send_all", lambda messages: (sent.extend(messages), original(messages)))
    game, (alice, bob) = _live_game(turn_seconds=2)
    assert game.deadline is not None
    first = [m for _group, m in sent if m["type"] == "game.frames"][0]
    shown = frames.frame_key(1)
    assert '"turn_seconds":2' in first["frames"][shown] and '"deadline":"' in first["frames"][shown]
    # Alice does nothing: after her 2 seconds a bot places her settlement and road; then Bob's clock runs.
    deadline = time.monotonic() + 20
    while rules.to_move(state_of(game)) == [0] and time.monotonic() < deadline:
        time.sleep(0.2)
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", "cause"))
    assert moves[:2] == [(0, "timeout"), (0, "timeout")]
    assert rules.to_move(state_of(game)) == [1]
    game.refresh_from_db()
    assert game.deadline is not None  # Bob's own clock runs
    Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None)  # his pending timeout finds none


@pytest.mark.django_db(transaction=True)
def test_the_deadline_stands_while_the_same_person_goes_on_acting():
    game, (alice, bob) = _live_game(turn_seconds=60)
    first_deadline = Game.objects.get(pk=game.pk).deadline
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    assert Game.objects.get(pk=game.pk).deadline == first_deadline  # her road is still her turn
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    assert Game.objects.get(pk=game.pk).deadline > first_deadline  # Bob's turn: his own clock
    Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None)


@pytest.mark.django_db(transaction=True)
def test_the_turn_clock_runs_per_turn_through_an_offer_round():
    """An offer hands the decision to the others for a moment; when they have answered, the player whose turn it
    is goes on against the clock their turn started with, not a fresh one."""
    game, (alice, bob) = _live_game(turn_seconds=60)
    state = state_of(game)
    state.current, state.phase, state.turn = 0, "main", 1  # a constructed position: alice has rolled
    state.hands[0][0] += 1
    started = timezone.now() + timedelta(seconds=40)  # her turn began 20 s ago
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state), deadline=started)
    offer = {"type": "offer_trade", "give": {"lumber": 1}, "get": {"ore": 1}, "to": [1]}
    services.move_submit(game_id=game.pk, user=alice, action=offer)
    services.move_submit(game_id=game.pk, user=bob, action={"type": "reject_trade"})
    assert rules.to_move(state_of(game)) == [0]
    assert Game.objects.get(pk=game.pk).deadline == started
    services.move_submit(game_id=game.pk, user=alice, action={"type": "cancel_trade"})
    assert Game.objects.get(pk=game.pk).deadline == started
    services.move_submit(game_id=game.pk, user=alice, action={"type": "end_turn"})
    assert Game.objects.get(pk=game.pk).deadline > started  # bob's turn: his own clock
    Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None)
