"""One clock model for a moderator's extend, pause and resume: the game's deadline and the deadline and time bank
of every seat that owes a decision move together, so that an extension really gives the time in a game by email
(whose players time out on their own seat's deadline), lasts through a pause, and the audit says what the new
deadlines are. Through the moderation API, with the clock driven by the test."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Game, Move
from moderation.models import AuditEntry
from tests.games.helpers import started_game
from tests.games.tasks.conftest import HOUR, async_game
from tests.games.tasks.conftest import clock as clock  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def _act(moderator, game, action: str, **more):
    client = APIClient()
    client.force_authenticate(moderator)
    response = client.post(
        f"/api/moderation/games/{game.pk}/actions/", {"action": action, "reason": "flooded", **more}, format="json"
    )
    assert response.status_code == 200, response.content
    return response


def _timeouts(game) -> int:
    return Move.objects.filter(game=game, cause="timeout").count()


def test_extend_gives_a_player_of_an_email_game_the_time_and_the_audit_states_the_deadlines(moderator, clock):
    game, (alice, _bob) = async_game(humans=2, bots=1)  # alice, seat 1, owes the first placement: one hour
    seat = game.seats.get(index=0)
    deadline, bank = seat.deadline, seat.bank_seconds
    assert deadline == clock.now + timedelta(hours=1)
    _act(moderator, game, "extend", hours=72)
    seat.refresh_from_db()
    game.refresh_from_db()
    assert seat.deadline == deadline + timedelta(hours=72) and seat.bank_seconds == bank + 72 * HOUR
    assert seat.deadline == seat.due_since + timedelta(seconds=seat.bank_seconds)  # the deadline is the bank's end
    assert game.deadline == seat.deadline
    entry = AuditEntry.objects.get(action="deadline_extended")
    assert entry.details == {
        "hours": 72,
        "deadline": game.deadline.isoformat(),
        "deadlines": {"1": seat.deadline.isoformat()},
    }
    client = Client()
    client.force_login(moderator)
    page = client.get("/moderation/audit/").content.decode()
    assert "new deadline by seat: seat 1: " in page and seat.deadline.isoformat() not in page  # in words
    # Past the old deadline, the clock tick leaves her be; the board shows the new deadline.
    clock.advance(hours=2)
    assert services.tick(game.pk) == "waiting" and _timeouts(game) == 0
    client = APIClient()
    client.force_authenticate(alice)
    view = client.get(f"/api/games/{game.pk}/").json()
    assert view["deadline"] == game.deadline.isoformat()
    # At the new deadline, the timeout policy plays as usual.
    clock.advance(hours=71, seconds=1)
    assert services.tick(game.pk).startswith("timeout") and _timeouts(game) > 0


def test_an_extension_during_a_pause_lasts_through_resume(moderator, clock):
    game, _users = async_game(humans=2, bots=1)
    seat = game.seats.get(index=0)
    _act(moderator, game, "pause")  # one hour left
    clock.advance(hours=5)
    _act(moderator, game, "extend", hours=72)
    clock.advance(hours=1)
    _act(moderator, game, "resume")
    seat.refresh_from_db()
    game.refresh_from_db()
    assert seat.deadline == clock.now + timedelta(hours=73)  # the hour left at the pause, and the 72 given
    assert game.deadline == seat.deadline and game.paused_remaining is None
    assert seat.deadline == seat.due_since + timedelta(seconds=seat.bank_seconds)
    clock.advance(hours=2)
    assert services.tick(game.pk) == "waiting" and _timeouts(game) == 0
    # Paused, the deadlines still move on at resume: the audit gave the hours each would have left then.
    entry = AuditEntry.objects.get(action="deadline_extended")
    assert entry.details == {"hours": 72, "hours_left": 73.0, "seats_hours_left": {"1": 73.0}}


def test_pause_and_resume_alone_still_give_back_exactly_the_time_left(moderator, clock):
    game, _users = async_game(humans=2, bots=1)
    clock.advance(minutes=20)
    _act(moderator, game, "pause")
    clock.advance(days=3)
    _act(moderator, game, "resume")
    seat = game.seats.get(index=0)
    assert seat.deadline == clock.now + timedelta(minutes=40)
    assert Game.objects.get(pk=game.pk).deadline == seat.deadline


def test_extend_moves_a_live_turn_clock(moderator, clock):
    game, _users = started_game(turn_seconds=120)
    before = Game.objects.get(pk=game.pk).deadline
    _act(moderator, game, "extend", hours=1)
    game.refresh_from_db()
    assert game.deadline == before + timedelta(hours=1)
    assert AuditEntry.objects.get(action="deadline_extended").details == {
        "hours": 1,
        "deadline": game.deadline.isoformat(),
    }
    clock.advance(minutes=5)
    assert services.tick(game.pk) == "waiting" and _timeouts(game) == 0


def test_a_game_with_no_clock_cannot_be_extended(moderator):
    game, _users = started_game()
    client = APIClient()
    client.force_authenticate(moderator)
    response = client.post(
        f"/api/moderation/games/{game.pk}/actions/", {"action": "extend", "hours": 5, "reason": "x"}, format="json"
    )
    assert response.status_code == 409 and response.json()["error"]["code"] == "no_deadline"
    assert not AuditEntry.objects.exists()
