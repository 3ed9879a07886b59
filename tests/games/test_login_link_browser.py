"""Issue 26, finding 9c in a real browser: a log-in link from an email, opened in Chromium, shows whose account
it is for and makes no session; the button logs in and opens the game."""

from __future__ import annotations

import pytest
from django.conf import settings

from games import services
from games.mail.links import login_url
from tests.e2e.base import BrowserCase
from tests.factories import UserFactory

pytestmark = pytest.mark.e2e


class LoginLinkBrowserTests(BrowserCase):
    def test_a_log_in_link_asks_for_a_click_before_it_logs_in(self):
        alice = UserFactory(display_name="Alice Liddell")
        game = services.game_create(creator=alice, seat_count=3, bot_seats=[1, 2])
        link = login_url(alice, game.pk).replace(settings.SITE_URL.rstrip("/"), self.live_server_url)
        page = self.new_page()
        page.goto(link)
        card = page.locator("#login-link")
        assert card.count() == 1 and "Alice Liddell" in card.inner_text()
        assert settings.SESSION_COOKIE_NAME not in {cookie["name"] for cookie in page.context.cookies()}
        page.click("#login-link button[type=submit]")
        page.wait_for_url(f"{self.live_server_url}/games/{game.pk}/")
        assert settings.SESSION_COOKIE_NAME in {cookie["name"] for cookie in page.context.cookies()}
        assert not page.errors
        page.context.close()
