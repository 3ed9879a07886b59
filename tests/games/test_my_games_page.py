"""The "My games" page names each scenario in the reader's language (not its code), and shows a time left only
where a clock runs (issue 27, item 8: `new_world` on the page; "0 minutes left" on a live game with no clock)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def _page(user, language: str = "en") -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client.get("/games/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_scenario_is_named_not_coded_in_english_and_french():
    game, users = started_game(humans=1, bots=3, scenario="new_world")
    english = _page(users[0])
    assert "The New World" in english and "(new_world)" not in english
    users[0].language = "fr"
    users[0].save(update_fields=["language"])
    french = _page(users[0], "fr")
    assert "(new_world)" not in french and "Nouveau Monde" in french


def test_a_live_game_without_a_clock_shows_no_time_left():
    game, users = started_game(humans=1, bots=3)
    assert game.turn_seconds is None
    Game.objects.filter(pk=game.pk).update(deadline=game.started_at)  # as a past disconnect grace left it
    page = _page(users[0])
    assert " left" not in page.split("<table", 1)[1]


def test_the_table_says_what_kind_of_game_it_is_apart_from_its_connection(settings):
    """Issue 27 item 7: the socket's state read "● Live" on an email game's page, as if it were the game's kind."""
    from pathlib import Path

    from tests.games.tasks.conftest import async_game

    game, users = async_game(humans=1, bots=2)
    client = Client()
    client.force_login(users[0])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-testid="game-kind">Play by email</span>' in page
    labels = (Path(settings.BASE_DIR) / "static" / "js" / "i18n.js").read_text()
    assert 'connection_connected: gettext("Connected")' in labels
