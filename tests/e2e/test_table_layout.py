"""The table's layout measured with the browser's geometry (issue 27): at 1280x720, 1366x768 and 1920x1080, and
at 390x844 with touch, in English and in French, at every decision of several turns, the prompt, the hand and
every action button are in view and apart, the action bar and the notices never cover the board, nothing covers a
legal spot, and on a phone each legal spot is a 44 px target and what does not fit the bar is in its "more" menu."""

from __future__ import annotations

import pytest

from tests.e2e.base import ARTIFACTS, BrowserCase
from tests.e2e.layout import LAPTOPS, PHONE, LayoutSteps

pytestmark = pytest.mark.e2e


class TableLayoutTests(LayoutSteps, BrowserCase):
    def test_laptop_sizes_in_english_and_french(self):
        page = self.new_page(*LAPTOPS[1])
        with self.reporting(page):
            self.start_game_against_bots(page, "laptop")
            self.play_turns(page, LAPTOPS, phone=False, turns=2)
            page.context.add_cookies([{"name": "django_language", "value": "fr", "url": self.live_server_url}])
            page.reload()
            page.wait_for_selector("html[lang=fr] #board polygon")
            self.play_turns(page, LAPTOPS, phone=False, turns=2)
            page.screenshot(path=str(ARTIFACTS / "layout-laptop-fr.png"))
            assert not page.errors, page.errors

    def test_phone_with_touch_in_french_and_english(self):
        context = self.browser.new_context(
            viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True, is_mobile=True, device_scale_factor=2
        )
        context.add_cookies([{"name": "django_language", "value": "fr", "url": self.live_server_url}])
        page = context.new_page()
        page.touch = True  # choices are taps (BrowserCase.press)
        page.errors = []
        page.socket_log = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        with self.reporting(page):
            self.start_game_against_bots(page, "phone")
            # Sounds are off by default on a touch screen.
            assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
            self.play_turns(page, [PHONE], phone=True, turns=2)
            page.screenshot(path=str(ARTIFACTS / "layout-phone-fr.png"))
            # The person's turn again: the bots wait (a bot's 7 would open the discard dialog over the tabs).
            self.answer_bot_trades_until(page, "#btn-roll:enabled", 90)
            # The log, the bank and the players are one tap away.
            for tab, panel in [("log", "#game-log"), ("bank", "#bank"), ("players", "#players")]:
                page.click(f"#panel-tabs [data-tab={tab}]")
                page.wait_for_selector(f"{panel}:visible")
                page.screenshot(path=str(ARTIFACTS / f"layout-phone-{tab}.png"))
                page.click("#drawer-close")
            page.context.add_cookies([{"name": "django_language", "value": "en", "url": self.live_server_url}])
            page.reload()
            page.wait_for_selector("html[lang=en] #board polygon")
            self.play_turns(page, [PHONE], phone=True, turns=1)
            assert not page.errors, page.errors

    def test_ten_turns_of_a_seafarers_game_at_every_size(self):
        """New Shores, ten turns without forging: at every decision, at both laptop sizes and the phone's."""
        page = self.new_page(*LAPTOPS[1])
        with self.reporting(page):
            self.start_game_against_bots(page, "sailor", choices={"scenario": "new_shores"})
            self.play_turns(page, [*LAPTOPS[:2], PHONE], phone=False, turns=10, crowd=False)
            assert not page.errors, page.errors
