"""A new user in headless Chromium: sign up, confirm by email, play against bots, and two players live."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from channels.testing import ChannelsLiveServerTestCase
from django.test import override_settings

from games.models import ChatMessage
from tests.conftest import missing_service

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
MAIL_DIR = tempfile.mkdtemp(prefix="catan-mail-")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.e2e


@override_settings(
    EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
    EMAIL_FILE_PATH=MAIL_DIR,
    BOT_LIVE_DELAY_SECONDS=0,
)
class BrowserTests(ChannelsLiveServerTestCase):
    serve_static = True

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(CHROMIUM):
            missing_service(f"{CHROMIUM} is not installed")
        from catan_site.celery import app

        # The site runs in a forked process: bots play there in-process, as with `make run`.
        cls.celery_eager = app.conf.task_always_eager
        app.conf.task_always_eager = True
        # The site's process is forked from this one: let it build its own channel layer rather than inherit
        # one whose Redis connections belong to this process's earlier event loops.
        from channels.layers import channel_layers

        channel_layers.backends.clear()
        super().setUpClass()
        from playwright.sync_api import sync_playwright

        # Playwright's sync API keeps an event loop on this thread; the test case's own database calls (flush
        # between tests) are synchronous and safe, so tell Django not to refuse them.
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        cls.playwright = sync_playwright().start()
        cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        ARTIFACTS.mkdir(exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.playwright.stop()
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        from catan_site.celery import app

        app.conf.task_always_eager = cls.celery_eager
        super().tearDownClass()
        shutil.rmtree(MAIL_DIR, ignore_errors=True)

    def new_page(self, width: int = 1280, height: int = 900):
        context = self.browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        # What the page's sockets carried, for the report of a failed test (see `report`).
        page.socket_log = []
        page.on("websocket", lambda socket: self._log_socket(page.socket_log, socket))
        page.on("framenavigated", lambda frame: page.socket_log.append(f"navigated {frame.url}"))
        return page

    @staticmethod
    def _log_socket(log: list[str], socket) -> None:
        log.append(f"open {socket.url}")
        socket.on("framesent", lambda payload: log.append(f"sent {str(payload)[:100]}"))
        socket.on("framereceived", lambda payload: log.append(f"received {str(payload)[:100]}"))
        socket.on("close", lambda _socket: log.append("closed"))

    def report(self, page) -> str:
        """The newest game as stored, the page's prompt and its socket traffic: why a browser test waited."""
        import rules
        from games.models import Game

        lines = [f"prompt: {page.inner_text('#prompt') if page.locator('#prompt').count() else '(none)'}"]
        game = Game.objects.order_by("-pk").first()
        if game is not None:
            seats = [(s.index, s.user_id, s.bot) for s in game.seats.all()]
            lines.append(f"game {game.pk} {game.status} seq {game.seq} seats {seats}")
            if game.state:
                state = rules.load(game.state)
                lines.append(f"phase {state.phase} to move {rules.to_move(state)}")
            lines += [f"move {m.seq} seat {m.seat} {m.action}" for m in game.moves.order_by("seq")]
        return "\n".join(lines + page.socket_log[-60:])

    def sign_up(self, page, username: str) -> None:
        # Unique addresses: allauth rate-limits confirmation mails per address in the (shared, real) cache.
        username = f"{username}{uuid.uuid4().hex[:6]}"
        page.goto(f"{self.live_server_url}/accounts/signup/")
        page.fill("input[name=email]", f"{username}@example.com")
        page.fill("input[name=username]", username)
        page.fill("input[name=password1]", "a long enough pass 42")
        page.fill("input[name=password2]", "a long enough pass 42")
        page.click("form button[type=submit]")
        page.wait_for_url(re.compile(r".*/accounts/confirm-email/.*"))
        link = self.confirmation_link(f"{username}@example.com")
        page.goto(link)
        page.wait_for_url(re.compile(rf"{re.escape(self.live_server_url)}/$"))
        assert page.locator("#new-game").count() == 1

    def confirmation_link(self, address: str) -> str:
        for path in sorted(Path(MAIL_DIR).glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True):
            text = path.read_text()
            if address in text:
                match = re.search(r"https?://\S+/accounts/confirm-email/\S+/", text)
                assert match, text
                return match.group(0).replace("http://localhost", self.live_server_url.rsplit(":", 1)[0])
        raise AssertionError(f"no confirmation email for {address} in {list(Path(MAIL_DIR).iterdir())}")

    def my_turn(self, page, timeout: int = 45000) -> None:
        page.wait_for_selector("#prompt[data-mine=yes]", timeout=timeout)

    def answer_bot_trades_until(self, page, selector: str, timeout: float = 45) -> None:
        """Wait for `selector`, turning down the trades bots offer this player meanwhile: an offer waits for
        every answer, so a bot's turn would otherwise not end (and the prompt says "your move" meanwhile)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if page.locator(selector).count():
                return
            reject = page.locator("#btn-reject-trade")
            if reject.count():
                reject.first.click()
            page.wait_for_timeout(200)
        raise AssertionError(f"{selector} did not appear within {timeout} s")

    def click_spot(self, page, kind: str) -> None:
        spot = page.locator(f".legal-spot[data-action*='\"{kind}\"']").first
        spot.wait_for(timeout=10000)
        spot.click()

    def test_new_user_plays_against_three_bots(self):
        page = self.new_page()
        try:
            self.play_against_three_bots(page)
        except Exception as error:
            raise AssertionError(f"{error}\n{self.report(page)}") from error

    def play_against_three_bots(self, page) -> None:
        self.sign_up(page, "newcomer")
        page.click("#new-game")
        page.select_option("select[name=bots]", "3")
        page.click("#create-game")
        page.click("#start-game")
        page.wait_for_selector("#board polygon")
        for _ in range(2):
            self.my_turn(page)
            self.click_spot(page, "build_settlement")
            page.wait_for_selector(".legal-spot[data-action*='build_road']", timeout=10000)
            self.click_spot(page, "build_road")
        page.screenshot(path=str(ARTIFACTS / "board-after-setup.png"))
        self.answer_bot_trades_until(page, "#btn-roll")
        page.click("#btn-roll")
        page.wait_for_selector("#btn-end-turn, .legal-spot[data-action*='move_robber'], #dialog-confirm", timeout=10000)
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
            watcher.wait_for_function(
                f"document.querySelectorAll('#board .settlement').length > {before}", timeout=10000
            )
            self.click_spot(pages[acting], "build_road")
            pages[acting].wait_for_function(
                "!document.querySelector(\".legal-spot[data-action*='build_road']\")", timeout=10000
            )
        # Chat with markup is shown as text, never run or rendered.
        host.fill("#chat-input", "<img src=x onerror=window.hacked=1><b>hello</b>")
        host.click("#chat-send")
        guest.locator("#chat-log", has_text="<b>hello</b>").wait_for(timeout=10000)
        assert guest.locator("#chat-log img, #chat-log b").count() == 0
        assert guest.evaluate("window.hacked") is None
        guest.screenshot(path=str(ARTIFACTS / "board-phone-guest.png"))
        assert not host.errors and not guest.errors

    def test_a_moderator_handles_a_report_from_the_queue(self):
        from games import moderation, services
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
        moderation.report_create(reporter=alice, game_id=game.pk, reason="insult", message_id=message.pk)

        page = self.new_page()
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.fill("input[name=login]", moderator.username)
        page.fill("input[name=password]", "moderate me please")
        page.click("form button[type=submit]")
        page.goto(f"{self.live_server_url}/moderation/")
        report = page.locator(".report").first
        # The message is shown as text, never as markup.
        assert report.locator(".reported-message").inner_text() == "<b>you all stink</b>"
        report.locator("input[name=reason]").fill("insult in chat")
        report.locator("button[value=hide]").click()
        page.wait_for_selector("#queue-empty")
        page.screenshot(path=str(ARTIFACTS / "moderation-queue.png"))
        page.goto(f"{self.live_server_url}/moderation/audit/")
        assert "report_hide" in page.inner_text("#audit") and "insult in chat" in page.inner_text("#audit")
        assert ChatMessage.objects.get(pk=message.pk).hidden
