"""A counter-offer to the person's own offer is answered on the table (issue 27, item 5): the person trades on its
terms or declines it, and a declined counter-offer closes the offer when no other answer is left."""

from __future__ import annotations

import pytest

import rules
from games.models import Game, Seat
from tests.e2e.base import BrowserCase
from tests.e2e.layout import LayoutSteps

pytestmark = pytest.mark.e2e


class CounterOfferTests(LayoutSteps, BrowserCase):
    def test_the_person_declines_a_bots_counter_offer(self):
        page = self.new_page(1366, 768)
        with self.reporting(page):
            self.start_game_against_bots(page, "counter")
            self.place_setup(page)
            self.answer_bot_trades_until(page, "#btn-roll:enabled", 90)
            game = Game.objects.order_by("-pk").first()
            me = Seat.objects.get(game=game, user__isnull=False).index
            bots = [seat for seat in range(4) if seat != me]

            def countered(state: rules.State) -> None:
                """The person rolled and offered a lumber for a brick; the first bot asks two bricks' worth (a lumber
                and a wool), the others turned it down."""
                state.phase, state.dice = "main", [2, 3]
                for seat, r in [(me, 0), (me, 2), (bots[0], 1)]:  # the cards each side of the counter-offer
                    if not state.hands[seat][r]:
                        state.hands[seat][r] += 1
                        state.bank[r] -= 1
                state.trade = {
                    "from": me,
                    "give": [1, 0, 0, 0, 0],
                    "get": [0, 1, 0, 0, 0],
                    "to": bots,
                    "replies": {bots[0]: {"give": [1, 0, 1, 0, 0], "get": [0, 1, 0, 0, 0]}},
                }
                for seat in bots[1:]:
                    state.trade["replies"][seat] = "reject"

            self.forge(countered)
            page.reload()
            page.wait_for_selector(f"#btn-reject-counter-{bots[0]}")
            assert page.locator(f"#btn-confirm-trade-{bots[0]}").count() == 1  # or trade on its terms
            assert page.locator("#trade-panel .reply.counter").count() == 1
            page.click(f"#btn-reject-counter-{bots[0]}")
            page.wait_for_selector("#trade-panel", state="hidden")
            state = rules.load(Game.objects.get(pk=game.pk).state)
            assert state.trade is None
            page.wait_for_selector("#game-log :text('counter-offer')")
            assert page.locator("#btn-end-turn:enabled").count() == 1
            assert not page.errors, page.errors
