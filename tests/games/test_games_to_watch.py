"""The home page lists public games in progress to watch, with their scenario's name (issue 27 item 11:
spectating worked by URL only; the open games showed scenario codes)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def test_public_games_in_progress_are_listed_to_watch_and_private_ones_are_not():
    public, _ = started_game(humans=1, bots=3, scenario="new_shores", name="Open table")
    private, _ = started_game(humans=1, bots=3, name="Closed table", visibility=Game.Visibility.PRIVATE)
    page = Client().get("/").content.decode()
    watch = page.split('id="games-to-watch"', 1)[1].split("</section>", 1)[0]
    assert "Open table" in watch and f'href="/games/{public.pk}/"' in watch
    assert "Seafarers 1: New Shores" in watch and "(new_shores)" not in page and ">new_shores<" not in page
    assert "Closed table" not in watch and f"/games/{private.pk}/" not in watch
    watched = Client().get(f"/games/{public.pk}/")
    assert watched.status_code == 200  # a spectator's view


def test_the_list_reads_in_french():
    started_game(humans=1, bots=3, scenario="new_shores", name="Table ouverte")
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Parties à regarder" in page and "Regarder" in page and "Marins 1" in page
