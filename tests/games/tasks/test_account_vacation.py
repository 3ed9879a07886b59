"""Vacation is account-wide (profile page) with a per-game override, endable early everywhere, seen by the
other players, and it holds for games joined after it started (issue 18, item 7)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from accounts import vacation
from games import services
from games.models import Seat
from tests.games.tasks.conftest import HOUR
from tests.games.tasks.conftest import async_game as email_game


@pytest.fixture(autouse=True)
def _one_clock(clock, monkeypatch):
    """The account's vacation runs on the games' test clock."""
    monkeypatch.setattr(vacation, "now", clock)


def _seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_an_account_vacation_pauses_every_game_even_one_joined_later_and_ends_early_everywhere(clock):
    game, (alice, bob) = email_game()
    client = _logged_in(alice)
    response = client.post("/accounts/profile/", {"vacation": "1", "days": "3"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.vacation_until == clock.now + dt.timedelta(days=3)
    # Her turn in the game she plays now waits for her return...
    assert _seat(game, 0).deadline == clock.now + dt.timedelta(days=3, hours=1)
    game.refresh_from_db()
    assert game.deadline == _seat(game, 0).deadline
    # ... and the others see it on her seat, on the page and in the API.
    api = _logged_in(bob).get(f"/api/games/{game.pk}/", HTTP_ACCEPT="application/json").json()
    assert api["seats"][0]["vacation_until"] == alice.vacation_until.isoformat()
    # A game she starts later holds too: her first turn there starts when she is back.
    other = services.game_create(
        creator=alice, seat_count=3, bot_seats=[1, 2], options={"seat_order": "fixed"}, clock="async", move_seconds=HOUR
    )
    services.game_start(game_id=other.pk, user=alice)
    assert _seat(other, 0).deadline == alice.vacation_until + dt.timedelta(hours=1)
    # Back early: one button on the profile page restarts her clocks everywhere with the time they had.
    clock.advance(days=1)
    assert client.post("/accounts/profile/", {"vacation_end": "1"}).status_code == 302
    alice.refresh_from_db()
    assert alice.vacation_until is None
    assert _seat(game, 0).deadline == clock.now + dt.timedelta(hours=1)
    assert Seat.objects.get(game=other, user=alice).deadline == clock.now + dt.timedelta(hours=1)
    assert _logged_in(bob).get(f"/api/games/{game.pk}/").json()["seats"][0]["vacation_until"] is None


@pytest.mark.django_db
def test_going_away_again_extends_from_the_current_end_and_never_past_the_limit(clock, settings):
    settings.VACATION_LIMIT_DAYS = 14
    _game, (alice, _bob) = email_game()
    client = _logged_in(alice)
    client.post("/accounts/profile/", {"vacation": "1", "days": "5"})
    client.post("/accounts/profile/", {"vacation": "1", "days": "2"})
    alice.refresh_from_db()
    assert alice.vacation_until == clock.now + dt.timedelta(days=7)  # extended, not cut to two days
    response = client.post("/accounts/profile/", {"vacation": "1", "days": "8"}, follow=True)
    alice.refresh_from_db()
    assert alice.vacation_until == clock.now + dt.timedelta(days=7)  # refused: it would end 15 days ahead
    assert "at most 14 days" in response.content.decode()


@pytest.mark.django_db
def test_i_am_back_in_one_game_overrides_the_account_vacation_there_only(clock):
    game, (alice, _bob) = email_game()
    other, (carol, _dave) = email_game()
    Seat.objects.filter(game=other, user=carol).update(user=alice)
    client = _logged_in(alice)
    client.post("/accounts/profile/", {"vacation": "1", "days": "3"})
    assert client.post(f"/games/{game.pk}/settings/", {"vacation_end": "1"}).status_code == 302
    assert _seat(game, 0).deadline == clock.now + dt.timedelta(hours=1)  # here she plays now
    assert _seat(other, 0).deadline == clock.now + dt.timedelta(days=3, hours=1)  # there she is still away
    page = client.get("/accounts/profile/").content.decode()
    assert "I am back" in page
    assert _seat(game, 0).bank_seconds == HOUR
