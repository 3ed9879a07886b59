"""Server-rendered pages: creating a game from the form, the waiting room, settings and fairness pages."""

import pytest

from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_new_game_form_creates_a_game_with_bots(client):
    client.force_login(UserFactory())
    form = client.get("/games/new/")
    assert form.status_code == 200 and b"timeout_policy" in form.content
    response = client.post(
        "/games/new/",
        {
            "scenario": "base",
            "seat_count": 4,
            "bots": 3,
            "bot_level": "medium",
            "board": "variable",
            "clock": "async",
            "move_hours": 24,
            "timeout_policy": "skip",
            "visibility": "private",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.clock == "async" and game.move_seconds == 86400 and game.timeout_policy == "skip"
    assert [s.bot for s in game.seats.all()] == ["", "medium", "medium", "medium"]
    waiting = client.get(response["Location"])
    assert b"start-game" in waiting.content and game.invite_token.encode() in waiting.content


def test_the_new_game_form_reports_errors_without_creating(client):
    client.force_login(UserFactory())
    response = client.post("/games/new/", {"scenario": "base", "seat_count": 3, "bots": 3})
    assert response.status_code == 400 and not Game.objects.exists()


def test_pages_need_login_or_answer(client):
    assert client.get("/games/new/").status_code == 302
    assert client.get("/").status_code == 200
    assert client.get("/games/999/").status_code == 404


def test_the_settings_page_saves_orders_reports_and_mutes(client):
    from games.models import Mute
    from moderation.models import Report
    from tests.games.helpers import started_game

    game, (alice, bob) = started_game()
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/settings/")
    assert page.status_code == 200 and bob.label.encode() in page.content
    client.post(
        f"/games/{game.pk}/settings/",
        {"orders": "1", "discard_first": "wool", "discard_then": "ore", "gold_first": "grain", "gold_then": ""},
    )
    assert game.seats.get(user=alice).standing_orders == {
        "discard_priority": ["wool", "ore"],
        "gold_default": ["grain"],
    }
    client.post(f"/games/{game.pk}/settings/", {"report": "1", "player": bob.pk, "reason": "rude"})
    assert Report.objects.get().reported_user == bob
    client.post(f"/games/{game.pk}/settings/", {"mute": "1", "player": bob.pk})
    assert Mute.objects.filter(user=alice, muted=bob).exists()
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client_for(bob).get(f"/games/{game.pk}/settings/").status_code == 200


def client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client
