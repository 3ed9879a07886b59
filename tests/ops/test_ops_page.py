"""/ops/: superusers see the key figures; anyone else logged in is refused (403), anonymous people go to log in."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def test_anonymous_people_are_sent_to_log_in(client):
    response = client.get("/ops/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_member_who_is_not_a_superuser_is_refused(client):
    client.force_login(UserFactory(is_staff=True))
    assert client.get("/ops/").status_code == 403


def test_a_superuser_sees_the_games_in_progress_in_english_and_french(client):
    started_game(humans=3, bots=0)
    superuser = UserFactory(is_staff=True, is_superuser=True, language="en")
    client.force_login(superuser)
    page = client.get("/ops/").content.decode()
    assert "Operations" in page and "Moves accepted" in page
    assert f'<td id="games-{Game.Clock.LIVE}">1</td>' in page
    superuser.language = "fr"
    superuser.save(update_fields=["language"])
    french = client.get("/ops/").content.decode()
    assert "Exploitation" in french and "Coups acceptés" in french


def test_the_admin_links_to_the_operators_page(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert 'href="/ops/"' in client.get("/admin/").content.decode()
