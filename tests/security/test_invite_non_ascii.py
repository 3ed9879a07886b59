"""An invitation token that is not ASCII (a fuzzer's `?invite=é`) is simply a wrong token, on every page and API
path that reads one: never a 500 (secrets.compare_digest refuses to compare non-ASCII text)."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/games/{id}/", "/api/games/{id}/", "/games/{id}/stats/", "/api/games/{id}/stats/"])
def test_a_non_ascii_invite_is_a_wrong_invite(path):
    game, _users = started_game(visibility=Game.Visibility.PRIVATE)
    response = Client().get(path.format(id=game.pk), {"invite": "é"})
    assert response.status_code in (400, 403, 404), response.status_code


def test_a_non_ascii_invite_cannot_join_a_waiting_game():
    host, guest = UserFactory(), UserFactory()
    game = services.game_create(creator=host, seat_count=3, visibility=Game.Visibility.PRIVATE)
    client = Client()
    client.force_login(guest)
    response = client.post(f"/api/games/{game.pk}/join/", {"invite": "é"}, content_type="application/json")
    assert response.status_code in (400, 403, 404) and response.json()["error"]["code"]
    assert not game.seats.filter(user=guest).exists()
