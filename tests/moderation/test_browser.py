"""Moderation in a browser: a player reports a chat line with its Report button, a moderator hides it from the
game's moderation page and the player's open page follows at once; a queue of 60 reports comes a page at a time."""

from __future__ import annotations

import uuid

import pytest

from games import services
from games.models import ChatMessage, SeatOffer
from moderation import services as moderation
from moderation.models import Report
from tests.e2e.base import ARTIFACTS, BrowserCase
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.e2e


class ModerationBrowserTests(BrowserCase):
    def log_in(self, user):
        page = self.new_page()
        self.log_in_on(page, user)
        return page

    def moderator(self):
        user = UserFactory(username=f"mod{uuid.uuid4().hex[:6]}")
        user.groups.add(moderation.moderators_group())
        return user

    def test_a_reported_line_hidden_by_a_moderator_disappears_from_the_open_page(self):
        game, (alice, bob) = started_game(humans=2, bots=1)
        services.chat_post(game_id=game.pk, user=bob, text="you all stink")
        player = self.log_in(alice)
        player.goto(f"{self.live_server_url}/games/{game.pk}/")
        line = player.locator("#chat-log li", has_text="you all stink")
        line.wait_for(timeout=10000)
        player.once("dialog", lambda dialog: dialog.accept("insult"))
        line.locator("[data-testid=chat-report]").click()
        player.locator("#flash", has_text="moderator").wait_for(timeout=10000)
        report = Report.objects.get(reporter=alice)
        assert report.message_text == "you all stink" and report.context

        moderator_page = self.log_in(self.moderator())
        moderator_page.goto(f"{self.live_server_url}/moderation/games/{game.pk}/")
        item = moderator_page.locator("#mod-chat li", has_text="you all stink")
        item.locator("input[name=reason]").fill("insult in chat")
        item.locator("button[value=hide]").click()
        moderator_page.locator("#mod-chat li.hidden-message").wait_for(timeout=10000)
        player.locator("#chat-log li", has_text="you all stink").wait_for(state="detached", timeout=10000)
        assert ChatMessage.objects.get(pk=report.message_id).hidden
        player.screenshot(path=str(ARTIFACTS / "moderation-hidden-live.png"))
        moderator_page.screenshot(path=str(ARTIFACTS / "moderation-game.png"), full_page=True)
        assert not player.errors and not moderator_page.errors

    def test_players_read_why_a_moderator_paused_their_game_and_play_on_after_the_resume(self):
        game, (alice, _bob) = started_game(humans=2, bots=1)
        moderator = self.moderator()
        player = self.log_in(alice)
        player.goto(f"{self.live_server_url}/games/{game.pk}/")
        player.locator("#prompt-text", has_text="Loading").wait_for(state="detached", timeout=10000)
        # Called from this thread, which runs the browser driver's event loop: the frames must still go out.
        moderation.game_set_status(moderator=moderator, game_id=game.pk, status="paused", reason="checking a report")
        player.locator("#prompt-text", has_text="checking a report").wait_for(timeout=10000)
        moderation.game_set_status(moderator=moderator, game_id=game.pk, status="active", reason="all clear")
        player.locator("#prompt-text", has_text="checking a report").wait_for(state="detached", timeout=10000)
        assert not player.errors

    def test_sixty_reports_come_twenty_people_a_page(self):
        game, (alice, _bob) = started_game(humans=2, bots=1)
        for i in range(60):
            Report.objects.create(reporter=alice, game=game, reported_user=UserFactory(), reason=f"spam {i}")
        page = self.log_in(self.moderator())
        page.goto(f"{self.live_server_url}/moderation/")
        assert page.locator(".report-group").count() == 20
        height = page.evaluate("document.documentElement.scrollHeight")
        page.screenshot(path=str(ARTIFACTS / "moderation-queue-60.png"), full_page=True)
        print(f"queue page height with 60 open reports: {height} px")
        assert height < 10846 / 2
        page.click("text=Next")
        page.wait_for_url("**page=2")
        assert page.locator(".report-group").count() == 20

    def test_a_moderator_undoes_a_replacement_with_the_seats_own_offer_back_button(self):
        """Item 5: each kept seat has its own undo form (reason, confirmation), not the offer form whose
        username field the browser requires."""
        game, (_alice, bob) = started_game(humans=2, bots=1)
        moderator = self.moderator()
        moderation.seat_replace_with_bot(moderator=moderator, game_id=game.pk, user_id=bob.pk, reason="afk")
        page = self.log_in(moderator)
        page.goto(f"{self.live_server_url}/moderation/games/{game.pk}/")
        undo = page.locator("li", has_text=f"kept for {bob.label}").locator("form.offer-back")
        undo.locator("input[name=reason]").fill("he came back")
        page.once("dialog", lambda dialog: dialog.accept())
        undo.locator("button[value=offer_back]").click()
        page.locator("#offers", has_text=bob.label).wait_for(timeout=10000)
        offer = SeatOffer.objects.get(user=bob)
        assert offer.seat.index == 1 and offer.accepted_at is None
        assert not page.errors

    def test_a_player_sees_no_report_button_on_their_own_chat_lines(self):
        game, (alice, bob) = started_game(humans=2, bots=1)
        services.chat_post(game_id=game.pk, user=alice, text="good luck all")
        services.chat_post(game_id=game.pk, user=bob, text="you too")
        player = self.log_in(alice)
        player.goto(f"{self.live_server_url}/games/{game.pk}/")
        theirs = player.locator("#chat-log li", has_text="you too")
        theirs.locator("[data-testid=chat-report]").wait_for(timeout=10000)
        mine = player.locator("#chat-log li", has_text="good luck all")
        assert mine.locator("[data-testid=chat-report]").count() == 0
        assert not player.errors
