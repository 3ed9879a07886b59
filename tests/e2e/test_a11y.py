"""Issue 41, "Catan for everyone": axe-core finds no violation of the WCAG 2.1 A and AA rules on any page of the
site, in English and in French, at 1366x768 and at 390x844.

axe-core 4.14.1 is vendored (tests/e2e/vendor/axe.min.js, Mozilla Public License 2.0, see LICENSE there) so the
test needs no network; it is injected into each page by the browser driver (`add_init_script`, which the site's
Content-Security-Policy does not govern). One browser page, logged in once, visits every page at both sizes and in
both languages; every violation found is listed in the failure, page by page."""

from __future__ import annotations

import tempfile
import time
import uuid
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.test import Client, override_settings

import rules
from games import services
from games.models import Game
from moderation import services as moderation
from moderation.models import Report
from rules.ai import RandomBot, choose_for
from rules.state import DISCARD, MAIN, ROBBER, ROLL
from tests.e2e.base import ARTIFACTS, BrowserCase
from tests.factories import UserFactory
from tests.replays.test_stats_browser import play_to_end

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_VERSION = "4.14.1"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SIZES = [(1366, 768), (390, 844)]
LANGUAGES = ["en", "fr"]
MAILBOX = tempfile.mkdtemp(prefix="catan-a11y-mailbox-")

# Every violation of the WCAG 2.1 A and AA rules on the page as it is, each with the nodes it names.
RUN_AXE = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\\n').slice(1, 2)}`)}));
}"""


def play_setup(state: rules.State) -> None:
    """Random choices for every seat until the set-up is over (seat 0 to roll, seats in fixed order)."""
    bots = [RandomBot(seed=seat) for seat in range(state.players)]
    while state.phase != ROLL:
        seat = rules.to_move(state)[0]
        rules.apply(state, seat, choose_for(state, seat, bots[seat]))


def server_error_page() -> str:
    """The site's own 500 page, as a failing view answers it (rendered here: the live server has no failing view)."""
    with override_settings(ROOT_URLCONF="tests.test_error_pages", DEBUG=False, DEBUG_PROPAGATE_EXCEPTIONS=False):
        response = Client(raise_request_exception=False).get("/test-only/boom/")
    assert response.status_code == 500
    return response.content.decode()


def a_mail_to(address: str) -> None:
    """A turn mail as `make run`'s catcher keeps it in the local mailbox's folder (devstack/mailcatcher.py)."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "catan@example.com", address, "[Catan] Your turn"
    message.set_content("It is your turn. Reply with: roll")
    name = f"{time.time_ns()}-1-000000"
    (Path(MAILBOX) / f"{name}.eml").write_bytes(message.as_bytes())


@override_settings(LOCAL_MAILBOX_DIR=MAILBOX)
class AccessibilityTests(BrowserCase):
    def game_against_bots(self, user, **kwargs) -> Game:
        game = services.game_create(
            creator=user, seat_count=4, bot_seats=[1, 2, 3], options={"seat_order": "fixed"}, **kwargs
        )
        services.game_start(game_id=game.pk, user=user)
        game.refresh_from_db()
        return game

    @staticmethod
    def forge(game: Game, mutate) -> None:
        state = rules.load(game.state)
        mutate(state)
        game.state = rules.dump(state)
        game.seq += 1
        game.save(update_fields=["state", "seq"])

    @staticmethod
    def rich(state: rules.State) -> None:
        """Seat 0 after its roll: three of each resource, one of each playable development card."""
        state.phase, state.dice = MAIN, [2, 3]
        for r in range(5):
            state.hands[0][r] += 3
            state.bank[r] -= 3
        for card in range(4):
            if card in state.deck:
                state.deck.remove(card)
                state.development[0][card] += 1

    def violations(self, page, where: str) -> list[str]:
        page.wait_for_timeout(150)  # the table renders again after a resize
        found = page.evaluate(RUN_AXE, WCAG_TAGS)
        return [f"{where}: {v['id']} ({v['impact']}) {v['help']}: {v['nodes']}" for v in found]

    def visit(self, page, url: str, ready: str = "body", action=None, translated: bool = True) -> list[str]:
        """axe on `url` at each size in this test's language, after `action(page)` when given (a dialog opened)."""
        problems = []
        for language in [self.language]:
            page.context.add_cookies([{"name": "django_language", "value": language, "url": self.live_server_url}])
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            page.goto(f"{self.live_server_url}{url}")
            lang = f"html[lang={language}] " if translated else ""
            page.wait_for_selector(f"{lang}{ready}", state="attached", timeout=15000)
            if action is not None:
                action(page)
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                problems += self.violations(page, f"{url} {language} {width}x{height}")
        self.pages += 1
        return problems

    # One test a language (the same pages and states in each), so that the test workers share them.
    def test_no_wcag_a_or_aa_violation_on_any_page_in_english_at_laptop_and_phone_sizes(self):
        self.every_page_and_state("en")

    def test_no_wcag_a_or_aa_violation_on_any_page_in_french_at_laptop_and_phone_sizes(self):
        self.every_page_and_state("fr")

    def every_page_and_state(self, language: str) -> None:
        assert language in LANGUAGES
        self.language = language
        me = UserFactory(username=f"ada{uuid.uuid4().hex[:6]}")
        me.groups.add(moderation.moderators_group())
        setup = self.game_against_bots(me)
        main = self.game_against_bots(me)
        self.forge(main, play_setup)
        finished = self.game_against_bots(me)
        play_to_end(finished)
        assert Game.objects.get(pk=finished.pk).status == Game.Status.FINISHED
        email = self.game_against_bots(me, clock="async", move_seconds=3600)
        waiting = services.game_create(creator=me, seat_count=4, bot_seats=[2, 3])
        other = UserFactory()
        a_mail_to(me.email)
        Report.objects.create(reporter=me, game=setup, reported_user=other, reason="spam in chat")

        self.pages = 0
        context = self.browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
        context.add_init_script(path=str(AXE))
        page = context.new_page()
        page.errors = []
        page.socket_log = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        problems: list[str] = []
        error_page = server_error_page()
        page.route(
            "**/test-only/boom/",
            lambda route: route.fulfill(status=500, body=error_page, content_type="text/html; charset=utf-8"),
        )
        with self.reporting(page):
            # The 500 page is the same in both languages (it says everything in both).
            problems += self.visit(page, "/test-only/boom/", "#server-error", translated=False)
            # Logged out: the home page, sign-up, log-in, the error page.
            for url, ready in [
                ("/", "main"),
                ("/accounts/signup/", "form"),
                ("/accounts/login/", "form"),
                ("/no-such-page/", "main"),
            ]:
                problems += self.visit(page, url, ready)
            self.log_in_on(page, me)
            board = "#board polygon"
            for url, ready in [
                ("/", "main"),
                ("/games/", "main"),
                ("/games/new/", "form"),
                (f"/games/{setup.pk}/", ".legal-spot"),
                (f"/games/{main.pk}/", "#btn-roll:enabled"),
                (f"/games/{email.pk}/settings/", "main"),
                # The notices of this game just saved: "Saved." in its status line (the address without its
                # #notices: going to the same address with a fragment again would not load the page in French).
                (f"/games/{email.pk}/settings/?saved=notices", "#notices-status:not(:empty)"),
                (f"/games/{email.pk}/", "#board polygon"),
                (f"/games/{waiting.pk}/", "main"),
                (f"/games/{setup.pk}/verify/", "main"),
                (f"/local/mail/?to={me.email}", "main"),
                (f"/games/{finished.pk}/", "#game-over:not([hidden])"),
                (f"/games/{finished.pk}/stats/", "main"),
                (f"/games/{finished.pk}/replay/", "#replay-board polygon"),
                ("/ratings/", "main"),
                (f"/players/{me.username}/", "main"),
                ("/accounts/profile/", "main"),
                ("/moderation/", "main"),
                ("/moderation/games/", "main"),
                (f"/moderation/games/{setup.pk}/", "main"),
                (f"/moderation/users/{other.pk}/", "main"),
                ("/moderation/audit/", "main"),
                ("/moderation/record/", "main"),
                ("/no-such-page/", "main"),
            ]:
                problems += self.visit(page, url, ready)

            # The main phase with each dialog open: the bank trade, an offer, a development card, the robber and a
            # discard after a 7.
            self.forge(main, self.rich)
            for button, ready in [
                ("btn-trade-bank", "#dialog"),
                ("btn-offer-trade", "#dialog"),
                ("btn-play-year-of-plenty", "#dialog"),
                ("btn-play-monopoly", "#dialog"),
            ]:
                problems += self.visit(page, f"/games/{main.pk}/", board, self.opener(button, ready))
            # The colour-blind-safe palette, switched on by keyboard: the seats take Okabe and Ito's colours.
            problems += self.visit(page, f"/games/{main.pk}/", board, self.safe_palette)
            # The overlays a key opens: the shortcuts' help (?) and the map in words (M).
            for key, overlay in [("?", "#help"), ("m", "#map-text")]:
                problems += self.visit(page, f"/games/{main.pk}/", board, self.pressing(key, overlay))

            def robber(state: rules.State) -> None:
                state.phase = ROBBER

            self.forge(main, robber)
            problems += self.visit(page, f"/games/{main.pk}/", ".legal-spot.hex-spot")

            def seven(state: rules.State) -> None:
                state.return_phase, state.phase, state.dice = MAIN, DISCARD, [3, 4]
                state.discards_owed = [4, 0, 0, 0]

            self.forge(main, seven)
            problems += self.visit(page, f"/games/{main.pk}/", "#dialog[data-kind=discard]")
            page.screenshot(path=str(ARTIFACTS / f"a11y-discard-{language}.png"))

        report = "\n".join(problems)
        (ARTIFACTS / f"a11y-violations-{language}.txt").write_text(report)
        assert self.pages == 38, self.pages
        assert not problems, f"{len(problems)} violations:\n{report}"
        assert not page.errors, page.errors

    @staticmethod
    def safe_palette(page) -> None:
        toggle = page.locator("#palette-toggle")
        if toggle.get_attribute("aria-pressed") == "false":
            toggle.focus()
            page.keyboard.press("Enter")
        assert toggle.get_attribute("aria-pressed") == "true"
        seat = page.evaluate("getComputedStyle(document.querySelector('#players .player')).getPropertyValue('--seat')")
        assert seat.strip() in {"#d55e00", "#0072b2", "#e69f00", "#cc79a7"}, seat

    @staticmethod
    def pressing(key: str, overlay: str):
        def open_overlay(page) -> None:
            page.wait_for_selector("#btn-end-turn:enabled", state="attached", timeout=10000)
            page.keyboard.press(key)
            page.wait_for_selector(f"{overlay}:not([hidden]) h2", timeout=10000)

        return open_overlay

    def opener(self, button: str, ready: str):
        def open_dialog(page) -> None:
            page.wait_for_selector(f"#{button}:enabled", state="attached", timeout=10000)
            self.click_action(page, button)
            page.wait_for_selector(ready, timeout=10000)

        return open_dialog


# WCAG's relative luminance and contrast ratio (1.4.11: an object's boundary at 3:1 against what is next to it).
CONTRASTS = """() => {
  const lum = (color) => {
    const [r, g, b] = color.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const found = {};
  for (const hex of document.querySelectorAll("#board .hex")) {
    const terrain = [...hex.classList].find((c) => c.startsWith("terrain-")).slice(8);
    if (terrain === "sea" || terrain === "fog") continue;
    const id = hex.getAttribute("fill").match(/url\\(#(.+)\\)/)[1];
    const base = getComputedStyle(document.getElementById(id).querySelector("rect")).fill;
    const ratioHere = ratio(getComputedStyle(hex).stroke, base);
    found[terrain] = Math.min(found[terrain] ?? Infinity, ratioHere);
  }
  return found;
}"""


class BoardOutlineTests(BrowserCase):
    def test_the_land_hexes_outlines_are_3_to_1_against_every_terrain_in_both_contrast_modes(self):
        me = UserFactory(username=f"outline{uuid.uuid4().hex[:6]}")
        game = services.game_create(creator=me, seat_count=4, bot_seats=[1, 2, 3], options={"seat_order": "fixed"})
        services.game_start(game_id=game.pk, user=me)
        page = self.new_page()
        self.log_in_on(page, me)
        for contrast in ("no-preference", "more"):
            page.emulate_media(contrast=contrast)
            page.goto(f"{self.live_server_url}/games/{game.pk}/")
            page.wait_for_selector("#board .hex.terrain-forest", state="attached", timeout=15000)
            ratios = page.evaluate(CONTRASTS)
            # The base game's six land terrains are all on the board.
            assert {"forest", "pasture", "fields", "hills", "mountains", "desert"} <= set(ratios), ratios
            low = {terrain: round(r, 2) for terrain, r in ratios.items() if r < 3.0}
            assert not low, f"outlines under 3:1 with prefers-contrast {contrast}: {low}"
