"""Nonsense in a page's parameters gets a clear refusal or is ignored: never a 500."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.mark.parametrize("form", [{"report": "1", "reason": "rude", "player": "abc"}, {"mute": "1", "player": "abc"}])
def test_a_bad_player_on_the_game_settings_page(form):
    game, (alice, _) = started_game()
    response = logged_in(alice).post(f"/games/{game.pk}/settings/", form)
    assert response.status_code in (200, 302, 400), response.status_code


def test_a_bad_offer_on_my_games():
    response = logged_in(UserFactory()).post("/games/", {"offer": "abc"})
    assert response.status_code in (302, 400), response.status_code


@pytest.fixture
def moderator():
    return UserFactory(is_superuser=True, is_staff=True)


@pytest.mark.parametrize(
    "query", ["stalled_days=99999999999", "player=%00", "player=a%00b", "stalled_days=-1", "stalled_days=%00"]
)
def test_the_moderators_game_search_with_nonsense(moderator, query):
    started_game()
    response = logged_in(moderator).get(f"/moderation/games/?{query}")
    assert response.status_code in (200, 400), response.status_code


@pytest.mark.parametrize(
    "form",
    [
        {"action": "extend", "hours": "abc"},
        {"action": "extend", "hours": "99999999999"},
        {"action": "replace_seat", "seat": "abc"},
    ],
)
def test_the_moderators_game_actions_with_nonsense(moderator, form):
    game, _ = started_game()
    response = logged_in(moderator).post(f"/moderation/games/{game.pk}/", {**form, "reason": "x"})
    assert response.status_code in (302, 400), response.status_code
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_the_moderators_report_queue_and_people_with_nonsense(moderator):
    _, (alice, _) = started_game()
    client = logged_in(moderator)
    assert client.post("/moderation/", {"report": "abc", "action": "dismiss"}).status_code in (302, 400)
    response = client.post(f"/moderation/users/{alice.pk}/", {"action": "suspend", "days": "abc", "reason": "x"})
    assert response.status_code in (302, 400)
    alice.refresh_from_db()
    assert alice.is_active
