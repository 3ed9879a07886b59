"""The browser tests' shared setup: the site in a forked process, headless Chromium through Playwright, and the
helpers every test uses (sign up, wait for a turn, click a lit spot, report why a test waited)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from channels.testing import ChannelsLiveServerTestCase
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import override_settings
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import rules
from games.models import Game
from rules.ai import RandomBot, play_game
from tests.conftest import missing_browser
from tests.e2e.flush import FlushRetry

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
MAIL_DIR = tempfile.mkdtemp(prefix="catan-mail-")
PASSWORD = "a password for the browser 42"  # `log_in_on` stores it
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# The legal actions the bar or its "more" menu must offer, by their buttons' ids.
MENU = """() => {
  const inBar = [...document.querySelectorAll('#actions > .button')].map((b) => b.id);
  const inMenu = [...document.querySelectorAll('#actions-more-menu .button')].map((b) => b.id);
  return {inBar, inMenu};
}"""


@override_settings(
    EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
    EMAIL_FILE_PATH=MAIL_DIR,
    BOT_LIVE_DELAY_SECONDS=0,
)
class BrowserCase(FlushRetry, ChannelsLiveServerTestCase):
    serve_static = True

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(CHROMIUM):
            missing_browser(f"{CHROMIUM} is not installed")
        from catan_site.celery import app

        # The site runs in a forked process: bots play there in-process, as with `make run`.
        cls.celery_eager = app.conf.task_always_eager
        app.conf.task_always_eager = True
        # The site's process is forked from this one: let it build its own channel layer rather than inherit
        # one whose Redis connections belong to this process's earlier event loops.
        from channels.layers import channel_layers

        channel_layers.backends.clear()
        # Nor an executor whose worker thread an earlier async test started here: threads do not survive a fork,
        # yet the forked executor would count that thread as idle and queue the site's socket work for it forever
        # (every WebSocket handshake then timed out, in browser tests run after any async test).
        from asgiref.sync import SyncToAsync

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
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

    def new_page(self, width: int = 1280, height: int = 900, touch: bool = False):
        """A page of its own context. With `touch`, the screen also takes touch: `press` taps while the window is
        a phone's (860 px wide or less) and clicks otherwise."""
        context = self.browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
        page = context.new_page()
        page.touch = touch
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        # What the page's sockets carried, for the report of a failed test (see `report`).
        page.socket_log = []
        # Every received frame with the test's clock when it arrived, for tests that time the server.
        page.timed_frames = []
        page.on("websocket", lambda socket: self._log_socket(page.socket_log, socket))
        page.on("websocket", lambda socket: self._time_frames(page.timed_frames, socket))
        page.on("framenavigated", lambda frame: page.socket_log.append(f"navigated {frame.url}"))
        return page

    @staticmethod
    def resize_table(page, width: int, height: int) -> None:
        """Set the viewport and wait for the table's render at that size: the page renders again 150 ms after a
        resize, later on a loaded machine, and the action bar is fitted to its width then (what it shows before
        that was fitted to the last size)."""
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "(size) => document.getElementById('game-root').dataset.renderedFor === size", arg=f"{width}x{height}"
        )

    @staticmethod
    def _time_frames(frames: list[tuple[float, str]], socket) -> None:
        socket.on("framereceived", lambda payload: frames.append((time.monotonic(), str(payload))))

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

    @contextmanager
    def reporting(self, page) -> Iterator[None]:
        """A failure inside says why the test waited: the stored game, the prompt and the socket traffic."""
        try:
            yield
        except Exception as error:
            raise AssertionError(f"{error}\n{self.report(page)}") from error

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

    @staticmethod
    def finish_stored_game(**fields) -> Game:
        """Random bots play the newest stored game to its end while it waits on the page's player (nothing else
        moves), stored finished one move later with `fields`."""
        game = Game.objects.order_by("-pk").first()
        state = rules.load(game.state)
        play_game(state, [RandomBot(seed=seat) for seat in range(game.seat_count)], max_actions=100_000)
        game.state = rules.dump(state)
        game.status = Game.Status.FINISHED
        for name, value in fields.items():
            setattr(game, name, value)
        game.seq += 1
        game.save()
        return game

    def log_in_on(self, page, user) -> None:
        """Log `user` in through the site's own form on `page`. The site process checks passwords with the
        production hashers, not the tests' fast one: the password is stored with one first."""
        user.password = PBKDF2PasswordHasher().encode(PASSWORD, "saltsaltsalt")
        user.save(update_fields=["password"])
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.fill("input[name=login]", user.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{self.live_server_url}/")

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

    @staticmethod
    def discard_as_asked(page) -> None:
        """The discard dialog after a 7: add cards (the first that can still be added, each time) until it holds
        as many as owed, then confirm."""
        page.evaluate(
            """() => { for (let i = 0; i < 40; i++) {
                 const plus = document.querySelector('#dialog [data-plus]:not(:disabled)');
                 if (!plus) break;
                 plus.click();
               } }"""
        )
        page.click("#dialog-confirm")

    def answer_bot_trades_until(self, page, selector: str, timeout: float = 45) -> None:
        """Wait for `selector`, turning down the trades bots offer this player and discarding after their 7s
        meanwhile: an offer waits for every answer, so a bot's turn would otherwise not end (and the prompt says
        "your move" meanwhile)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if page.locator(selector).count():
                return
            reject = page.locator("#btn-reject-trade")
            if reject.count():
                reject.first.click()
            if page.locator("#dialog[data-kind=discard]").count():
                self.discard_as_asked(page)
            page.wait_for_timeout(200)
        raise AssertionError(f"{selector} did not appear within {timeout} s")

    def finish_robber(self, page) -> None:
        """After this seat's roll: move the robber, pick a victim, discard when a 7 asks it, until End turn is usable
        (or ten seconds have gone by)."""
        for _ in range(50):
            if page.locator("#btn-end-turn:enabled").count():
                return
            if page.locator(".legal-spot.hex-spot").count():
                page.locator(".legal-spot.hex-spot").first.click()
            if page.locator("#dialog .victim").count():
                page.locator("#dialog .victim").first.click()
            if page.locator("#dialog[data-kind=discard]").count():  # a 7 (this seat's or a bot's): discard
                self.discard_as_asked(page)
            elif page.locator("#btn-discard:enabled").count():  # owed, the dialog not open yet
                try:  # in the bar or its "more" menu; a bot's move may render the bar again meanwhile: try again
                    self.click_action(page, "btn-discard", timeout=3000)
                except PlaywrightTimeoutError:
                    pass
            page.wait_for_timeout(200)

    @staticmethod
    def in_menu(page, button: str) -> bool:
        return button in page.evaluate(MENU)["inMenu"]

    def click_action(self, page, button: str, timeout: float = 30000) -> None:
        """Click an action where it is: in the bar, or in its "more" menu (opened first)."""
        if self.in_menu(page, button):
            self.press(page, "#btn-more")
            page.wait_for_selector("#actions-more-menu:not([hidden])")
            problems = page.evaluate(
                """() => [...document.querySelectorAll('#actions-more-menu .button')].flatMap((b) => {
                     const r = b.getBoundingClientRect();
                     return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth ? []
                       : [`${b.id} out of view`];
                   })"""
            )
            assert not problems, problems
        self.press(page, f"#{button}", timeout=timeout)

    def click_spot(self, page, kind: str) -> None:
        spot = page.locator(f".legal-spot[data-action*='\"{kind}\"']").first
        spot.wait_for(timeout=10000)
        self.press(page, spot)

    @staticmethod
    def press(page, target, timeout: float = 30000) -> None:
        """Click `target` (a selector or a locator), or tap it on a touch page at a phone's width."""
        locator = page.locator(target) if isinstance(target, str) else target
        if getattr(page, "touch", False) and page.viewport_size["width"] <= 860:
            locator.tap(timeout=timeout)
        else:
            locator.click(timeout=timeout)

    def start_game_against_bots(
        self, page, name: str, bots: int = 3, choices: dict[str, str] | None = None, before_start=None
    ) -> None:
        """Sign up a new person, create a game with `bots` bots (and the new-game form's other `choices`), run
        `before_start()` in the waiting room if given, and start it: the board is on screen."""
        self.sign_up(page, name)
        page.click("#new-game")
        for field, value in {"bots": str(bots), **(choices or {})}.items():
            page.select_option(f"select[name={field}]", value)
        page.click("#create-game")
        page.wait_for_selector("#start-game")
        if before_start is not None:
            before_start()
        page.click("#start-game")
        page.wait_for_selector("#board polygon")

    def place_setup(self, page) -> None:
        """The two setup rounds: a settlement and a road each time."""
        for _ in range(2):
            self.my_turn(page)
            self.click_spot(page, "build_settlement")
            page.wait_for_selector(".legal-spot[data-action*='build_road']", timeout=10000)
            self.click_spot(page, "build_road")

    @staticmethod
    def off_screen(page, selectors: list[str]) -> list[str]:
        """Those of `selectors` that are shown but not wholly inside the window (hidden or empty ones are fine)."""
        return page.evaluate(
            """(selectors) => selectors.flatMap((selector) => {
                 const e = document.querySelector(selector);
                 if (!e || e.hidden || !e.getClientRects().length) return [];
                 const r = e.getBoundingClientRect();
                 const inside = r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
                 return inside ? [] : [`${selector} at ${Math.round(r.left)},${Math.round(r.top)}-` +
                   `${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}x${innerHeight}`];
               })""",
            selectors,
        )

    @staticmethod
    def wait_until(page, expression: str, timeout: float = 10) -> None:
        """Poll a JavaScript expression until it is true. Playwright's wait_for_function evaluates its string
        with eval(), which the site's Content-Security-Policy refuses; page.evaluate is not subject to it."""
        deadline = time.monotonic() + timeout
        while not page.evaluate(expression):
            if time.monotonic() > deadline:
                raise AssertionError(f"still false after {timeout} s: {expression}")
            page.wait_for_timeout(100)
