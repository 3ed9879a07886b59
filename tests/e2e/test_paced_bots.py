"""Bots at a visible pace, as in `make run`: a person's move is answered at once, and each bot move lands at least
half a second after the one before, marked on the board and captioned as it lands; also around a trade, when the
person answers an offer while a bot still owes its reply."""

from __future__ import annotations

import json
import time

import pytest
from django.test import override_settings

import rules
from games import services
from games.models import Game, Move
from tests.e2e.base import ARTIFACTS, BrowserCase

pytestmark = pytest.mark.e2e

PACE = 0.5


@override_settings(BOT_LIVE_DELAY_SECONDS=PACE)
class PacedBotsTests(BrowserCase):
    def test_bots_play_at_a_visible_pace_after_the_person_is_answered(self):
        page = self.new_page()
        with self.reporting(page):
            self.start_game_against_bots(page, "watcher")
            seq = self.place_until_a_bot_is_next(page)
            # The next bot's move arrives with its caption and its mark on the board.
            self.wait_until(page, f"+document.getElementById('caption').dataset.seq > {seq}", timeout=15)
            assert page.locator("#board .recent-mark").count() >= 1
            page.screenshot(path=str(ARTIFACTS / "bot-move-captioned.png"))
            page.wait_for_timeout(int(PACE * 3000))
            self.check_the_pace(page)
            self.check_the_pace_around_a_trade(page)

    def place_until_a_bot_is_next(self, page) -> int:
        """Place a settlement and a road (twice when this seat is last in the set-up order, which goes back the
        other way): the seq of the road after which a bot plays. The frames are recorded from that road on."""
        seat = int(page.get_attribute("#game-root", "data-your-seat"))
        for _ in range(2):
            self.my_turn(page)
            self.click_spot(page, "build_settlement")
            page.wait_for_selector(".legal-spot[data-action*='build_road']", timeout=10000)
            page.timed_frames.clear()
            before = Game.objects.order_by("-pk").first().seq
            self.click_spot(page, "build_road")
            for _wait in range(100):
                game = Game.objects.order_by("-pk").first()
                if game.seq > before:
                    break
                page.wait_for_timeout(50)
            if rules.to_move(rules.load(game.state)) != [seat]:
                return before + 1
        raise AssertionError("no bot to move after two set-up rounds")

    def check_the_pace(self, page) -> None:
        frames = [(at, json.loads(payload)) for at, payload in page.timed_frames if payload.startswith("{")]
        acked = next((at, f["seq"]) for at, f in frames if f.get("type") == "ack")
        first_bot = next(at for at, f in frames if f.get("type") == "update" and f["seq"] > acked[1])
        # The person's request was answered before any bot played, and the first bot waited its turn.
        assert first_bot - acked[0] >= PACE * 0.8, (acked, first_bot)
        game = Game.objects.order_by("-pk").first()
        moves = list(Move.objects.filter(game=game, seq__gte=acked[1]).order_by("seq"))
        assert len(moves) >= 3 and moves[0].cause == "player"
        gaps = [(b.created_at - a.created_at).total_seconds() for a, b in zip(moves, moves[1:], strict=False)]
        assert all(gap >= PACE for gap in gaps), gaps

    def check_the_pace_around_a_trade(self, page) -> None:
        """A bot offers a trade to everyone; the person turns it down while the other bots still owe their replies.
        Each committed move that leaves a bot to act queues a bot turn: the person's answer must not start a second
        chain of bot moves beside the first (they landed 0.1-0.3 s apart until this person's next turn)."""
        seat = int(page.get_attribute("#game-root", "data-your-seat"))
        self.answer_bot_trades_until(page, "#btn-roll:enabled, .legal-spot[data-action*='build_settlement']", 90)
        if page.locator(".legal-spot[data-action*='build_settlement']").count():  # this seat's second round
            self.click_spot(page, "build_settlement")
            page.wait_for_selector(".legal-spot[data-action*='build_road']", timeout=10000)
            self.click_spot(page, "build_road")
            self.answer_bot_trades_until(page, "#btn-roll:enabled", 90)
        # A constructed position: the bot after this seat has rolled and offers one of its cards for another.
        game = Game.objects.order_by("-pk").first()
        state = rules.load(game.state)
        bot = (seat + 1) % game.seat_count
        state.current, state.phase = bot, "main"
        if not any(state.hands[bot]):  # its set-up gave it nothing, or it spent all (1 game in ~500): a card to offer
            state.hands[bot][0] += 1
            state.bank[0] -= 1
        game.state = rules.dump(state)
        game.save(update_fields=["state"])
        names = ["lumber", "brick", "wool", "grain", "ore"]  # rules.constants.RESOURCES
        give = next(r for r in range(5) if state.hands[bot][r])
        offer = {"type": "offer_trade", "give": {names[give]: 1}, "get": {names[(give + 1) % 5]: 1}}
        # Made from this process, where the suite's autouse fixture set no delay: the site's own pace here too, for
        # the bot turns this process queues.
        with override_settings(BOT_LIVE_DELAY_SECONDS=PACE):
            offered = services.move_submit_for_seat(game_id=game.pk, seat=bot, action=offer, cause="bot").seq
            # Turned down at once: the bots' replies are still owed (they come one per PACE).
            page.click("#btn-reject-trade", timeout=10000)
            # The bots play on until this person must act alone.
            quiet_since, deadline = time.monotonic(), time.monotonic() + 90
            while time.monotonic() - quiet_since < PACE * 5 and time.monotonic() < deadline:
                if rules.to_move(rules.load(Game.objects.get(pk=game.pk).state)) != [seat]:
                    quiet_since = time.monotonic()
                if page.locator("#btn-reject-trade").count():
                    page.locator("#btn-reject-trade").click()
                page.wait_for_timeout(100)
        answered = Move.objects.filter(game=game, seq__gt=offered, seat=seat).order_by("seq").first().seq
        assert (
            Move.objects.filter(game=game, seq__gt=answered, action__type__endswith="_trade").exclude(seat=bot).exists()
        ), "the person answered after every bot: nothing was tested"
        moves = list(Move.objects.filter(game=game, seq__gt=offered).exclude(seat=seat).order_by("seq"))
        assert len(moves) >= 3, moves
        gaps = [(b.created_at - a.created_at).total_seconds() for a, b in zip(moves, moves[1:], strict=False)]
        assert all(gap >= PACE for gap in gaps), gaps
