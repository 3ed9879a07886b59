"""A game page whose WebSocket cannot open (a proxy that drops upgrades, the channel layer down) still shows the
game and its chat, read over HTTP."""

from __future__ import annotations

import pytest

from games import services
from tests.e2e.base import BrowserCase
from tests.games.helpers import started_game

pytestmark = pytest.mark.e2e


class HttpFallbackTests(BrowserCase):
    def test_without_a_socket_the_page_shows_the_game_and_its_chat_over_http(self):
        game, (alice, bob) = started_game(humans=2, bots=1)
        services.chat_post(game_id=game.pk, user=bob, text="anyone there?")
        page = self.new_page()
        page.route_web_socket("**/ws/**", lambda ws: ws.close())  # every socket refused, as by a broken proxy
        self.log_in_on(page, alice)
        page.goto(f"{self.live_server_url}/games/{game.pk}/")
        page.locator("#chat-log li", has_text="anyone there?").wait_for(timeout=15000)
        page.locator("#prompt-text", has_text="Loading").wait_for(state="detached", timeout=15000)
        assert not page.errors
