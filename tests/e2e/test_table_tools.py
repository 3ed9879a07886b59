"""The table's tools (issue 27): the clock badge beside the prompt and the connection as a separate small dot
(email game), sounds with a remembered mute switch, keyboard shortcuts and their help overlay, and the bots' pace
chosen by the person (live game against bots)."""

from __future__ import annotations

import json
import zoneinfo

import pytest
from django.test import override_settings

import rules
from games import services
from games.live import pace
from games.models import Game, Move, Seat
from tests.e2e.base import ARTIFACTS, BrowserCase
from tests.games.helpers import state_of
from tests.games.private_services import wait_until
from tests.games.tasks.conftest import async_game
from tests.games.test_clock_frames import apart

pytestmark = pytest.mark.e2e

ZONE = "Asia/Kolkata"  # half an hour off UTC: a time shown in UTC would not match
DELAY = 0.2


def shown(when) -> str:
    """The hour and minute as the page writes them (en, 12-hour clock) in the viewer's time zone."""
    return when.astimezone(zoneinfo.ZoneInfo(ZONE)).strftime("%I:%M")


def inside(page, inner: str, outer: str) -> bool:
    return page.evaluate(
        """([a, b]) => {
             const [p, q] = [a, b].map((selector) => document.querySelector(selector).getBoundingClientRect());
             return p.left >= q.left - 1 && p.right <= q.right + 1 && p.top >= q.top - 1 && p.bottom <= q.bottom + 1;
           }""",
        [inner, outer],
    )


@override_settings(BOT_LIVE_DELAY_SECONDS=DELAY)
class TableToolsTests(BrowserCase):
    def test_email_game_clock_badge_beside_the_prompt_and_a_connection_dot(self):
        apart()
        game, (alice, _bob) = async_game()
        context = self.browser.new_context(viewport={"width": 1280, "height": 720}, timezone_id=ZONE)
        page = context.new_page()
        self.log_in_on(page, alice)
        page.goto(f"{self.live_server_url}/games/{game.pk}/")
        mine = page.locator('#clock-badge .seat-clock:not(.bank)[data-seat="0"]')
        mine.wait_for(timeout=15000)
        text = mine.inner_text()
        assert shown(Seat.objects.get(game=game, index=0).deadline) in text, text
        assert " left" in text and ("hr" in text or "day" in text or "min" in text), text
        assert inside(page, "#clock-badge", "#prompt")
        # The socket's state is a small dot of its own, not a label that reads as the game's kind.
        page.wait_for_selector("#connection[data-state=connected]")
        size = page.evaluate("(() => { const r = connection.getBoundingClientRect(); return [r.width, r.height]; })()")
        assert max(size) <= 16, size
        assert page.inner_text(".game-kind") == "Play by email"
        for _ in range(2):  # her settlement and road, played elsewhere: the turn passes to Bob
            services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
        his = page.locator('#clock-badge .seat-clock[data-seat="1"]')
        his.wait_for(timeout=15000)
        assert shown(Seat.objects.get(game=game, index=1).deadline) in his.inner_text()
        assert mine.count() == 0
        # Her time bank stays in view while she waits: what she keeps for her next decisions.
        bank = page.locator('#clock-badge .seat-clock.bank[data-seat="0"]')
        bank.wait_for(timeout=15000)
        kept = Seat.objects.get(game=game, index=0).bank_seconds
        assert kept and int(bank.get_attribute("data-bank")) == kept
        assert "in the bank" in bank.inner_text(), bank.inner_text()
        page.screenshot(path=str(ARTIFACTS / "clock-badge.png"))
        context.close()

    def test_sounds_shortcuts_help_and_the_bots_pace(self):
        page = self.new_page(1366, 768)
        with self.reporting(page):
            self.start_game_against_bots(page, "keys")
            game = Game.objects.order_by("-pk").first()
            # Sounds are on by default with a mouse; the person's turn sounds.
            assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
            self.place_setup(page)
            self.answer_bot_trades_until(page, "#btn-roll:enabled", 90)
            assert page.get_attribute("#game-root", "data-sound") == "turn"
            # The help lists the shortcuts; Escape closes it.
            page.keyboard.press("?")
            page.wait_for_selector("#help:not([hidden]) kbd")
            assert "Roll the dice" in page.inner_text("#help")
            page.screenshot(path=str(ARTIFACTS / "shortcuts-help.png"))
            page.keyboard.press("Escape")
            page.wait_for_selector("#help", state="hidden")
            # R rolls, E ends the turn: the same moves as the buttons.
            page.keyboard.press("r")
            self.wait_until(page, "document.getElementById('btn-roll').disabled")  # at once: the roll is sent
            wait_until(lambda: self.stored(game, "roll"), timeout=10)
            self.finish_robber(page)
            # Slow bots from the end of this turn on (set while the bots wait for it: a loaded machine would
            # otherwise see them finish their turns before the pace was set).
            self.set_slow_pace(page, game)
            after = Game.objects.get(pk=game.pk).seq
            page.keyboard.press("e")
            self.wait_until(page, "document.getElementById('btn-end-turn').disabled")
            wait_until(lambda: self.stored(game, "end_turn"), timeout=10)
            # Muted: remembered over a reload, and the next turn is silent.
            page.click("#sound-toggle")
            assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
            page.reload()
            page.wait_for_selector("#board polygon")
            assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
            assert page.input_value("#bot-pace") == "slow"
            self.answer_bot_trades_until(page, "#btn-roll:enabled", 90)
            assert page.get_attribute("#game-root", "data-sound") is None
            # Slow: the bots' moves came at least 2.5 x the site's delay apart.
            bots = list(Move.objects.filter(game=game, seq__gt=after, cause="bot").order_by("seq"))
            gaps = [(b.created_at - a.created_at).total_seconds() for a, b in zip(bots, bots[1:], strict=False)]
            assert len(gaps) >= 2 and min(gaps) >= DELAY * pace.PACES["slow"] * 0.95, (gaps, json.dumps(pace.PACES))
            assert not page.errors, page.errors

    def stored(self, game: Game, kind: str) -> bool:
        """This seat's move of `kind` is in the game's moves (the page disables its bar as soon as it sends one,
        before the server has it)."""
        return Move.objects.filter(game=game, action__type=kind, seat=self.seat(game)).exists()

    @staticmethod
    def seat(game: Game) -> int:
        return Seat.objects.get(game=game, user__isnull=False).index

    def set_slow_pace(self, page, game: Game) -> None:
        """The person sets the bots' pace to slow; a pace that is not one of the three is refused with its code
        and changes nothing."""
        assert page.input_value("#bot-pace") == "normal"
        refused = page.evaluate(
            """(url) => new Promise((resolve) => {
                 const socket = new WebSocket(url);
                 socket.onopen = () => socket.send(JSON.stringify({type: 'bot_pace', pace: 'warp'}));
                 socket.onmessage = (event) => {
                   const frame = JSON.parse(event.data);
                   if (frame.type === 'error') { socket.close(); resolve(frame); }
                 };
               })""",
            self.live_server_url.replace("http", "ws") + f"/ws/games/{game.pk}/",
        )
        assert refused["code"] == "bad_pace", refused
        assert pace.bot_pace(Game.objects.get(pk=game.pk)) == "normal"
        page.select_option("#bot-pace", "slow")
        self.wait_until(page, "document.getElementById('bot-pace').value === 'slow'")
        for _ in range(50):
            if pace.bot_pace(Game.objects.get(pk=game.pk)) == "slow":
                break
            page.wait_for_timeout(100)
        assert pace.bot_pace(Game.objects.get(pk=game.pk)) == "slow"
