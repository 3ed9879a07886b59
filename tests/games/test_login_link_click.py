"""Issue 26, finding 9c: a log-in link from a notification email asks for a click, as action links do. Opening
it (a mail scanner, or a victim opening a link of an attacker's own account) logs no one in and makes no
session; the page names the account and its button (a POST with the CSRF token) logs in and opens the game.
Expired links and links spent by a password change still send to the log-in page; a player already logged in
goes straight on to the game."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.mail.links import login_url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _link(user, game) -> str:
    return login_url(user, game.pk).removeprefix("http://testserver")


def _who(client: Client) -> int | None:
    """The user the client's session belongs to, asked of the API (None: anonymous)."""
    response = client.get("/api/me/")
    return response.json().get("id") if response.status_code == 200 else None


def _csrf(page) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)


@pytest.fixture
def game_and_player():
    alice = UserFactory(display_name="Alice Liddell")
    game = services.game_create(creator=alice, seat_count=3, bot_seats=[1, 2])
    return game, alice


def test_opening_a_log_in_link_logs_no_one_in_and_the_button_does(game_and_player):
    game, alice = game_and_player
    link = _link(alice, game)
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(link)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'method="post"' in html and "Alice Liddell" in html
    assert "sessionid" not in visitor.cookies and _who(visitor) is None
    # A POST without the page's CSRF token (another site's form) does nothing.
    assert visitor.post(link).status_code == 403
    assert _who(visitor) is None
    # The button.
    response = visitor.post(link, {"csrfmiddlewaretoken": _csrf(page)})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert _who(visitor) == alice.pk
    # Logged in as the link's player already: straight to the game.
    again = visitor.get(link)
    assert again.status_code == 302 and again["Location"] == f"/games/{game.pk}/"


def test_someone_logged_in_as_another_account_stays_so_until_they_click(game_and_player):
    game, alice = game_and_player
    bob = UserFactory(display_name="Bob")
    client = Client()
    client.force_login(bob)
    page = client.get(_link(alice, game))
    assert page.status_code == 200 and _who(client) == bob.pk
    assert "Alice Liddell" in page.content.decode() and "Bob" in page.content.decode()
    client.post(_link(alice, game))
    assert _who(client) == alice.pk


def test_expired_or_spent_links_send_to_the_log_in_page_on_open_and_on_click(game_and_player, settings):
    game, alice = game_and_player
    link = _link(alice, game)
    alice.set_password("a brand new passphrase")
    alice.save()
    for method in ("get", "post"):
        client = Client()
        response = getattr(client, method)(link)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        assert _who(client) is None
    settings.LOGIN_LINK_MAX_AGE = -1
    fresh = _link(alice, game)
    client = Client()
    assert client.post(fresh)["Location"].startswith("/accounts/login/") and _who(client) is None
