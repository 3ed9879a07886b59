"""The site menu on a phone: folded behind a button under ~600 px (one slim header row), opened by click or
keyboard, every link then on screen and usable; on a laptop the links show as always."""

from __future__ import annotations

import pytest

from tests.e2e.base import ARTIFACTS, BrowserCase

pytestmark = pytest.mark.e2e

ITEMS = "#site-nav > a, #site-nav button.link, #site-nav select"


class SiteMenuTests(BrowserCase):
    def test_the_phone_menu_is_folded_and_opens_with_every_link_reachable(self):
        page = self.new_page(390, 844)
        with self.reporting(page):
            self.sign_up(page, "phone")
            toggle = page.locator("#menu-toggle")
            assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
            assert not page.locator("#site-nav").is_visible()
            assert page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height") < 60
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            page.screenshot(path=str(ARTIFACTS / "menu-390x844-folded.png"))

            toggle.click()
            assert toggle.get_attribute("aria-expanded") == "true"
            items = page.locator(ITEMS)
            names = [items.nth(i).inner_text() or items.nth(i).get_attribute("name") for i in range(items.count())]
            assert len(names) >= 5, names  # my games, new game, profile, log out, language
            assert all(items.nth(i).is_visible() for i in range(items.count())), names
            selectors = [f"#site-nav > :nth-child({i + 1})" for i in range(page.locator("#site-nav > *").count())]
            assert not self.off_screen(page, selectors)
            page.screenshot(path=str(ARTIFACTS / "menu-390x844-open.png"))
            # Escape folds it again and gives the focus back to the button; the keyboard opens it too.
            page.keyboard.press("Escape")
            assert toggle.get_attribute("aria-expanded") == "false" and not page.locator("#site-nav").is_visible()
            assert page.evaluate("document.activeElement.id") == "menu-toggle"
            page.keyboard.press("Enter")
            assert toggle.get_attribute("aria-expanded") == "true"
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.closest('#site-nav') !== null")
            # A link works from the opened menu, and "Log out" is within reach.
            page.locator("#site-nav a", has_text="My games").click()
            page.wait_for_url("**/games/")
            toggle.click()
            assert page.locator("#site-nav button.link", has_text="Log out").is_visible()
            page.locator("#site-nav select[name=language]").select_option("fr")
            page.wait_for_selector("html[lang=fr]")
            # On a laptop there is no menu button: the links are simply there.
            page.set_viewport_size({"width": 1366, "height": 768})
            assert not page.locator("#menu-toggle").is_visible()
            assert page.locator("#site-nav").is_visible()
            assert not page.errors, page.errors
