"""In the browser: a person finishes a game (their moves through the move service, the bots on their own), opens
the statistics from the end screen and sees the charts, whole, at laptop and phone sizes; their profile then
shows a rating, and their page its chart."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

import rules
from games import services
from games.models import Game
from tests.e2e.base import ARTIFACTS, BrowserCase
from tests.greedy import GreedyBot

pytestmark = pytest.mark.e2e

VIEWPORTS = [(1366, 768), (390, 844)]
CHARTS = ["chart-victory-points", "chart-gained", "chart-spent", "chart-lost", "chart-awards", "chart-dice"]
# Charts drawn and inside the window's width; the page itself does not scroll sideways.
FIT = """(ids) => ({
  page: document.documentElement.scrollWidth,
  charts: ids.map((id) => { const e = document.querySelector(`[data-testid="${id}"]`);
                            if (!e) return null; const r = e.getBoundingClientRect();
                            return [r.left, r.right, r.height]; }),
})"""


def play_to_end(game: Game) -> Game:
    """The page's player (seat 0) plays greedily through the move service; the bots answer on their own."""
    me = GreedyBot(1)
    user = game.seats.get(index=0).user
    # As fast as the server takes it: far past a person's moves a minute (the rate limit).
    with override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "moves": 0}):
        for _ in range(4000):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            state = rules.load(game.state)
            if 0 in rules.to_move(state):
                action = me.choose(state, 0, rules.legal_actions(state, 0))
                services.move_submit(game_id=game.pk, user=user, action=action)
    game.refresh_from_db()
    return game


class StatisticsBrowserTest(BrowserCase):
    def test_statistics_from_the_end_screen_and_the_rating_on_the_profile(self):
        page = self.new_page(*VIEWPORTS[0])
        with self.reporting(page):
            self.start_game_against_bots(page, "stats")
            game = play_to_end(Game.objects.order_by("-pk").first())
            assert game.status == Game.Status.FINISHED
            page.reload()
            link = page.locator("#game-over:not([hidden]) #game-stats-link")
            link.wait_for(timeout=20000)
            link.click()
            page.wait_for_url(f"**/games/{game.pk}/stats/")
            for width, height in VIEWPORTS:
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_timeout(50)
                fit = page.evaluate(FIT, CHARTS)
                assert fit["page"] <= width, f"the page scrolls sideways at {width}: {fit['page']}"
                for name, box in zip(CHARTS, fit["charts"], strict=True):
                    assert box is not None, f"no {name}"
                    left, right, chart_height = box
                    assert 0 <= left and right <= width and chart_height > 50, f"{name} at {box} in {width}px"
                page.screenshot(path=str(ARTIFACTS / f"stats-{width}x{height}.png"), full_page=True)
            # The numbers say the same as the engine: the winner's points ended at the target.
            assert page.locator("#stats-table tbody tr").count() == 4
            assert page.locator("#stats-winner").count() == 1

            page.goto(f"{self.live_server_url}/accounts/profile/")
            summary = page.locator("#ratings-summary li[data-mode=live]")
            summary.wait_for()
            assert "1" in summary.inner_text()
            page.click("#player-page-link")
            page.wait_for_selector('[data-testid="chart-rating"]')
            for width, height in VIEWPORTS:
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_timeout(50)
                box = page.locator('[data-testid="chart-rating"]').bounding_box()
                assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= width, box
                page.screenshot(path=str(ARTIFACTS / f"player-{width}x{height}.png"), full_page=True)
            assert page.locator("#recent-games tbody tr a[href$='/stats/']").count() == 1
            assert not page.errors, page.errors
