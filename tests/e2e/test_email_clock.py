"""An email game's page shows every seat's deadline and vacation in the viewer's time zone, and follows a turn
change live: the update frame moves the deadline badge to the new player (issue 18, item 7)."""

from __future__ import annotations

import zoneinfo

import pytest

import rules
from games import services
from games.models import Seat
from tests.e2e.base import ARTIFACTS, BrowserCase
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game
from tests.games.test_clock_frames import apart

pytestmark = pytest.mark.e2e

ZONE = "Asia/Kolkata"  # half an hour off UTC: a time shown in UTC would not match


def shown(when, zone: str = ZONE) -> str:
    """The hour and minute as the page writes them (en, 12-hour clock) in the viewer's time zone."""
    return when.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%I:%M")


class EmailClockTests(BrowserCase):
    def test_deadline_and_away_badges_show_in_the_viewer_s_time_zone_and_follow_the_turn(self):
        apart()
        game, (alice, bob) = async_game()
        services.vacation_start(game_id=game.pk, user=bob, days=2)
        context = self.browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id=ZONE)
        page = context.new_page()
        self.log_in_on(page, alice)
        page.goto(f"{self.live_server_url}/games/{game.pk}/")
        mine = page.locator('#players li[data-seat="0"] .badge.deadline')
        mine.wait_for(timeout=15000)
        assert shown(Seat.objects.get(game=game, index=0).deadline) in mine.inner_text()
        away = page.locator('#players li[data-seat="1"] .badge.away')
        assert shown(Seat.objects.get(game=game, index=1).vacation_until) in away.inner_text()
        assert page.locator('#players li[data-seat="1"] .badge.deadline').count() == 0
        for _ in range(2):  # her settlement and road, played elsewhere: the turn passes to Bob
            services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
        his = page.locator('#players li[data-seat="1"] .badge.deadline')
        his.wait_for(timeout=15000)
        assert shown(Seat.objects.get(game=game, index=1).deadline) in his.inner_text()
        assert mine.count() == 0
        page.screenshot(path=str(ARTIFACTS / "email-clock-badges.png"))
        context.close()
