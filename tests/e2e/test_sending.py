"""While a move is on its way to the server, the action bar waits with it: every button is disabled and says
"Sending…" until the answer comes. A click on End turn meanwhile used to be dropped without a word (the page
sends one move at a time), and the button looked usable."""

from __future__ import annotations

import pytest

import rules
from games.models import Game, Move
from tests.e2e.base import BrowserCase
from tests.games.helpers import started_game

pytestmark = pytest.mark.e2e


class SendingTests(BrowserCase):
    def test_the_bar_is_disabled_and_says_sending_while_a_move_travels(self):
        game, users = started_game(humans=3, bots=0)
        state = rules.position(
            players=3, seed=1, seats=[{"hand": {"wool": 2, "grain": 2, "ore": 2}}], current=0, phase="main"
        )
        game.state = rules.dump(state)
        game.save(update_fields=["state"])

        # The server's frames pass through here, and are held back while `hold` is on: the move is on its way.
        held: list = []
        hold = {"on": False, "page_side": None}

        def route(ws) -> None:
            server = ws.connect_to_server()
            hold["page_side"] = ws
            ws.on_message(lambda message: server.send(message))
            server.on_message(lambda message: held.append(message) if hold["on"] else ws.send(message))

        page = self.new_page(1366, 768)
        page.route_web_socket("**/ws/**", route)
        with self.reporting(page):
            self.log_in_on(page, users[0])
            page.goto(f"{self.live_server_url}/games/{game.pk}/")
            page.wait_for_selector("#btn-buy-dev:enabled", timeout=15000)
            page.wait_for_selector("#btn-end-turn:enabled", timeout=15000)

            hold["on"] = True
            page.click("#btn-buy-dev")
            page.wait_for_selector("#btn-end-turn:disabled", state="attached", timeout=5000)
            for button in ("#btn-end-turn", "#btn-buy-dev", "#btn-trade-bank", "#btn-offer-trade"):
                assert page.get_attribute(button, "title") == "Sending…", button
            assert page.inner_text("#prompt-text") == "Sending…"

            hold["on"] = False
            for message in held:
                hold["page_side"].send(message)
            page.wait_for_selector("#btn-end-turn:enabled", timeout=10000)
            assert page.get_attribute("#btn-end-turn", "title") is None
            assert Move.objects.filter(game=game).count() == 1
            assert Game.objects.get(pk=game.pk).seq == game.seq + 1
            assert not page.errors, page.errors
