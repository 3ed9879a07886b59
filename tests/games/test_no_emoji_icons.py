"""Issue 27 item 10: the robot emoji showed as an empty box where no emoji font is installed (the seat menus of
the waiting room, the home page, "waiting for" in My games): bots are named in words, in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def test_the_waiting_room_and_the_lobby_name_bots_in_words():
    host = UserFactory()
    game = services.game_create(creator=host, seat_count=4, bot_seats=[1, 2])
    client = Client()
    client.force_login(host)
    room = client.get(f"/games/{game.pk}/").content.decode()
    assert "🤖" not in room and "Medium bot" in room
    lobby = Client().get("/").content.decode()
    assert "🤖" not in lobby
    french = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "🤖" not in french


def test_my_games_names_the_bot_it_waits_for():
    from games import selectors

    game, users = started_game(humans=1, bots=3)
    rows = selectors.games_for_user(users[0])
    assert all("🤖" not in name for row in rows for name in row["waiting_for"])
    page = Client()
    page.force_login(users[0])
    assert "🤖" not in page.get("/games/").content.decode()
