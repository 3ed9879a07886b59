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


@pytest.mark.parametrize(
    "url",
    [
        "/moderation/games/?status=%00",
        "/moderation/games/?scenario=%00",
        "/moderation/audit/?action=%00",
        "/moderation/audit/?moderator=%00",
        "/moderation/?kind=%00",
        "/api/moderation/games/?stalled_days=99999999999",
        "/api/moderation/games/?player=%00",
        "/api/moderation/games/?status=%00",
        "/api/moderation/games/?scenario=%00",
        "/api/moderation/audit/?action=%00",
        "/api/moderation/audit/?moderator=%00",
        "/api/moderation/audit/?person=%00",
        "/api/games/?status=%00",
    ],
)
def test_nul_and_huge_numbers_in_any_query_get_a_clear_answer(moderator, url):
    """Every text parameter, on every page and endpoint: PostgreSQL refuses NUL in text (a DataError, a 500)."""
    started_game()
    response = logged_in(moderator).get(url)
    assert response.status_code in (200, 400), (url, response.status_code)
    if url.startswith("/api/") and response.status_code == 400:
        # NUL in text; a number out of the range the schema states
        assert response.json()["error"]["code"] in ("bad_text", "invalid")


def test_a_nul_in_an_invitation_or_any_form_field_is_refused_with_a_400_and_changes_nothing():
    game, (alice, _) = started_game()
    client = logged_in(alice)
    response = client.post(f"/games/{game.pk}/invite/", {"to": "\x00"})
    assert response.status_code == 400 and "Bad request" in response.content.decode()
    response = client.post(f"/games/{game.pk}/settings/", {"report": "1", "reason": "a\x00b", "player": "2"})
    assert response.status_code == 400
