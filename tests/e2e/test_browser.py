"""A new user in headless Chromium: sign up, confirm by email, play against bots, and two players live."""

from __future__ import annotations

import uuid

import pytest

from games.models import ChatMessage
from tests.e2e.base import ARTIFACTS, BrowserCase

pytestmark = pytest.mark.e2e


class BrowserTests(BrowserCase):
    def test_new_user_plays_against_three_bots(self):
        page = self.new_page()
        with self.reporting(page):
            self.play_against_three_bots(page)

    def play_against_three_bots(self, page) -> None:
        self.start_game_against_bots(page, "newcomer")
        self.place_setup(page)
        page.screenshot(path=str(ARTIFACTS / "board-after-setup.png"))
        self.answer_bot_trades_until(page, "#btn-roll:enabled")
        page.click("#btn-roll:enabled")
        page.wait_for_selector(
            "#btn-end-turn:enabled, .legal-spot[data-action*='move_robber'], #dialog-confirm", timeout=10000
        )
        if page.locator("#dialog-confirm").count():
            return  # a 7 with more than 7 cards cannot happen on turn one; keep the test honest if rules change
        if page.locator(".legal-spot[data-action*='move_robber']").count():
            page.locator(".legal-spot.hex-spot").first.click()
            if page.locator("#dialog .button").count() > 1:
                page.locator("#dialog .button").first.click()
        built = page.locator(".legal-spot[data-action*='build_road']")
        if built.count():
            built.first.click()
        page.click("#btn-end-turn")
        # The bots now play their turns; their moves arrive without a reload.
        self.answer_bot_trades_until(page, "#game-log li[data-type=rolled] ~ li[data-type=rolled]")
        page.screenshot(path=str(ARTIFACTS / "board-bots-played.png"))
        log = page.inner_text("#game-log")
        assert "bot" in log.lower()
        assert page.locator("#board .settlement, #board .city").count() >= 8
        assert not page.errors, page.errors

    def test_two_players_see_each_others_moves_live(self):
        host, guest = self.new_page(), self.new_page(390, 844)
        self.sign_up(host, "hostess")
        self.sign_up(guest, "visitor")
        host.click("#new-game")
        host.select_option("select[name=bots]", "2")
        host.click("#create-game")
        game_url = host.url
        guest.goto(game_url)
        guest.click("#join-game")
        # The host's waiting room reloads itself when someone joins.
        host.locator(".seats", has_text="visitor").wait_for(timeout=15000)
        assert "hostess" in guest.inner_text("#waiting-host")
        host.click("#start-game")
        guest.wait_for_selector("#board polygon", timeout=15000)
        host.wait_for_selector("#board polygon", timeout=15000)
        pages = {"host": host, "guest": guest}
        # Whoever must act places a settlement; the other sees it appear without reloading.
        for _ in range(2):
            acting = None
            for _attempt in range(200):
                for name, page in pages.items():
                    if page.locator("#prompt[data-mine=yes]").count():
                        acting = name
                        break
                if acting:
                    break
                host.wait_for_timeout(100)
            assert acting, "nobody got a turn"
            watcher = pages["guest" if acting == "host" else "host"]
            before = watcher.locator("#board .settlement").count()
            self.click_spot(pages[acting], "build_settlement")
            self.wait_until(watcher, f"document.querySelectorAll('#board .settlement').length > {before}")
            self.click_spot(pages[acting], "build_road")
            self.wait_until(pages[acting], "!document.querySelector(\".legal-spot[data-action*='build_road']\")")
        # Chat with markup is shown as text, never run or rendered.
        host.fill("#chat-input", "<img src=x onerror=window.hacked=1><b>hello</b>")
        host.click("#chat-send")
        guest.click("#panel-tabs [data-tab=chat]")  # on a phone the chat is one tap away, in a drawer
        guest.locator("#chat-log", has_text="<b>hello</b>").wait_for(timeout=10000)
        assert guest.locator("#chat-log img, #chat-log b").count() == 0
        assert guest.evaluate("window.hacked") is None
        guest.screenshot(path=str(ARTIFACTS / "board-phone-guest.png"))
        assert not host.errors and not guest.errors

    def test_a_moderator_handles_a_report_from_the_queue(self):
        from games import services
        from moderation import services as moderation
        from tests.factories import UserFactory

        alice, bob = UserFactory(), UserFactory()
        from django.contrib.auth.hashers import PBKDF2PasswordHasher

        moderator = UserFactory(username=f"mod{uuid.uuid4().hex[:6]}")
        # The site process checks passwords with the production hashers, not the tests' fast one.
        moderator.password = PBKDF2PasswordHasher().encode("moderate me please", "saltsaltsalt")
        moderator.save()
        moderator.groups.add(moderation.moderators_group())
        game = services.game_create(creator=alice, seat_count=3, bot_seats=[2])
        services.seat_join(game_id=game.pk, user=bob)
        message = services.chat_post(game_id=game.pk, user=bob, text="<b>you all stink</b>")
        services.report_create(reporter=alice, game_id=game.pk, reason="insult", message_id=message.pk)

        page = self.new_page()
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.fill("input[name=login]", moderator.username)
        page.fill("input[name=password]", "moderate me please")
        page.click("form button[type=submit]")
        page.goto(f"{self.live_server_url}/moderation/")
        report = page.locator(".report").first
        # The reported line (with its author, among the chat around it) is shown as text, never as markup.
        assert report.locator(".reported-message").inner_text().endswith(": <b>you all stink</b>")
        assert report.locator(".reported-message b").count() == 0
        report.locator("input[name=reason]").fill("insult in chat")
        report.locator("button[value=hide]").click()
        page.wait_for_selector("#queue-empty")
        page.screenshot(path=str(ARTIFACTS / "moderation-queue.png"))
        page.goto(f"{self.live_server_url}/moderation/audit/")
        assert "report_hide" in page.inner_text("#audit") and "insult in chat" in page.inner_text("#audit")
        assert ChatMessage.objects.get(pk=message.pk).hidden
