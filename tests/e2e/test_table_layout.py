"""The table's layout measured with the browser's geometry (issue 27): at 1280x720, 1366x768 and 1920x1080, and
at 390x844 with touch, in English and in French, at every decision of several turns, the prompt, the hand and
every action button are in view and apart, the action bar and the notices never cover the board, nothing covers a
legal spot, and on a phone each legal spot is a 44 px target and what does not fit the bar is in its "more" menu."""

from __future__ import annotations

import time

import pytest

import rules
from games.models import Game, Seat
from tests.e2e.base import ARTIFACTS, BrowserCase

pytestmark = pytest.mark.e2e

LAPTOPS = [(1280, 720), (1366, 768), (1920, 1080)]
PHONE = (390, 844)

# Everything wrong with the table as it is on screen now, as readable notes (an empty list when all is well).
PROBLEMS = """({hand, phone, target}) => {
  const problems = [];
  const shown = (e) => e && !e.hidden && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'
    && getComputedStyle(e).display !== 'none';
  const box = (e) => e.getBoundingClientRect();
  const where = (r) => `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
  const inView = (r) => r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
  const meet = (p, q) => !(p.bottom <= q.top + 1 || q.bottom <= p.top + 1 || p.right <= q.left + 1
    || q.right <= p.left + 1);
  const label = (e) => e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${String(e.className.baseVal ?? e.className)}`;
  for (const selector of ['#prompt', hand, '#actions']) {
    const e = document.querySelector(selector);
    if (!shown(e)) problems.push(`${selector} is not shown`);
    else if (!inView(box(e))) problems.push(`${selector} is out of view at ${where(box(e))}`);
  }
  const board = box(document.getElementById('board-wrap'));
  for (const selector of ['#actions', '#caption', '#zoom', '#hand-strip', '#trade-panel', '#panel-tabs',
                          '#clock-badge']) {
    const e = document.querySelector(selector);
    if (shown(e) && meet(box(e), board)) problems.push(`${selector} covers the board (${where(box(e))})`);
  }
  const bar = document.getElementById('actions');
  if (bar.scrollWidth > bar.clientWidth + 1) problems.push('the action bar scrolls sideways');
  const buttons = [...bar.querySelectorAll(':scope > .button')].filter(shown);
  buttons.forEach((b, i) => {
    if (!inView(box(b))) problems.push(`${label(b)} is out of view at ${where(box(b))}`);
    if (b.scrollWidth > b.clientWidth + 1) problems.push(`${label(b)}'s label is cut`);
    for (const c of buttons.slice(i + 1)) if (meet(box(b), box(c))) problems.push(`${label(b)} overlaps ${label(c)}`);
  });
  for (const spot of document.querySelectorAll('#board .legal-spot, #board .legal-source')) {
    const mark = box(spot.querySelector('.mark'));
    const x = (mark.left + mark.right) / 2, y = (mark.top + mark.bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    const name = spot.dataset.action || spot.dataset.from || spot.getAttribute('class');
    if (!hit || hit.closest('.legal-spot, .legal-source') !== spot) {
      const by = hit ? label(hit) : 'nothing (off screen)';
      problems.push(`${name} at ${Math.round(x)},${Math.round(y)} is covered by ${by}`);
    }
    if (phone) {
      const hits = [...spot.querySelectorAll('.hit')].map(box);
      const width = Math.max(...hits.map((r) => r.right)) - Math.min(...hits.map((r) => r.left));
      const height = Math.max(...hits.map((r) => r.bottom)) - Math.min(...hits.map((r) => r.top));
      const size = `${Math.round(width)}x${Math.round(height)}`;
      if (width < target - 0.5 || height < target - 0.5) problems.push(`${name}'s target is ${size} px`);
    }
  }
  if (phone) {
    const zoom = document.getElementById('zoom');
    for (const harbour of document.querySelectorAll('#board .harbour')) {
      if (shown(zoom) && meet(box(zoom), box(harbour))) problems.push(`the zoom buttons cover a harbour`);
    }
  }
  return problems;
}"""

# The legal actions the bar or its "more" menu must offer, by their buttons' ids.
MENU = """() => {
  const inBar = [...document.querySelectorAll('#actions > .button')].map((b) => b.id);
  const inMenu = [...document.querySelectorAll('#actions-more-menu .button')].map((b) => b.id);
  return {inBar, inMenu};
}"""


class TableLayoutTests(BrowserCase):
    # The smallest tap target around a legal spot on a phone: 44 px. A wide Seafarers map fitted to a phone's width
    # (New Shores: corners 39 px and edge middles 34 px apart at 390 px) gets 90% of the spacing until the zoom
    # buttons enlarge it.
    target = 44

    def check(self, page, step: str, sizes: list[tuple[int, int]], phone: bool = False) -> None:
        for width, height in sizes:
            # Up to 860 px wide the table is the phone's: the hand is a strip, and every spot a 44 px target.
            small = phone or width <= 860
            hand = "#hand-strip" if small else "#hand"
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(300)  # the page renders again 150 ms after a resize
            page.evaluate("window.scrollTo(0, 0)")
            problems = page.evaluate(PROBLEMS, {"hand": hand, "phone": small, "target": self.target})
            if problems:
                page.screenshot(path=str(ARTIFACTS / f"layout-{step.replace(' ', '-')}-{width}x{height}.png"))
            assert not problems, f"{step} at {width}x{height}: {problems}"

    def forge(self, mutate) -> None:
        game = Game.objects.order_by("-pk").first()
        state = rules.load(game.state)
        mutate(state)
        game.state = rules.dump(state)
        game.save(update_fields=["state"])

    @staticmethod
    def rich_hand(state: rules.State, seat: int) -> None:
        """Two of each resource and one of each playable development card, taken from the bank and the deck."""
        for r in range(5):
            add = max(0, 2 - state.hands[seat][r])
            state.hands[seat][r] += add
            state.bank[r] -= add
        for card in range(4):
            if card in state.deck:
                state.deck.remove(card)
                state.development[seat][card] += 1

    def my_seat(self) -> int:
        game = Game.objects.order_by("-pk").first()
        return Seat.objects.get(game=game, user__isnull=False).index

    def play_turns(self, page, sizes, phone: bool, turns: int, crowd: bool = True) -> None:
        """Set-up (when it is still on), then `turns` turns: each decision checked at every size. With `crowd`, the
        first turn is forged to show the most buttons."""
        for _ in range(2):
            self.wait_answering(page, ".legal-spot[data-action*='build_settlement'], #btn-roll:enabled")
            if not page.locator(".legal-spot[data-action*='build_settlement']").count():
                break
            self.check(page, "setup settlement", sizes, phone)
            self.click_spot(page, "build_settlement")
            page.wait_for_selector(".legal-spot.edge-spot", timeout=10000)
            self.check(page, "setup road", sizes, phone)
            page.locator(".legal-spot.edge-spot").first.click()
            if page.locator("#choose-road").count():
                page.click("#choose-road")
        for turn in range(turns):
            self.wait_answering(page, "#btn-roll:enabled")
            seat = self.my_seat()
            if turn == 0 and crowd:
                # The most buttons a turn shows: every development card to play, and a discard after a 7.
                self.forge(lambda state, seat=seat: self.rich_hand(state, seat))
                page.reload()
                page.wait_for_selector("#btn-roll:enabled", timeout=10000)
            self.check(page, "roll", sizes, phone)
            self.click_action(page, "btn-roll")
            page.wait_for_selector("#btn-roll:disabled", state="attached", timeout=10000)
            if turn == 0 and crowd:
                self.check_discard(page, sizes, phone, seat)
            self.finish_robber(page)
            page.wait_for_selector("#btn-end-turn:enabled", timeout=20000)
            self.check(page, "main", sizes, phone)
            if page.evaluate("document.getElementById('btn-build-road').disabled === false"):
                self.click_action(page, "btn-build-road")
                if page.locator(".legal-spot[data-action*='build_road']").count():
                    self.check(page, "road spots", sizes, phone)
                    self.click_spot(page, "build_road")
                    page.wait_for_selector("#btn-end-turn:enabled", timeout=10000)
            self.click_action(page, "btn-end-turn")
            page.wait_for_selector("#btn-end-turn:disabled", state="attached", timeout=10000)

    def wait_answering(self, page, selector: str, timeout: float = 90) -> None:
        """Wait for `selector`, turning down the bots' offers and discarding after their 7s meanwhile."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if page.locator(selector).count():
                return
            if page.locator("#btn-reject-trade").count():
                page.locator("#btn-reject-trade").first.click()
            if page.locator("#dialog[data-kind=discard]").count():
                self.discard_as_asked(page)
            page.wait_for_timeout(200)
        raise AssertionError(f"{selector} did not appear within {timeout} s")

    def check_discard(self, page, sizes, phone: bool, seat: int) -> None:
        """A 7 forged after the roll: this seat owes 4 cards, and the bar grows a "Discard 4" button."""

        def seven(state: rules.State) -> None:
            state.return_phase, state.phase = "main", "discard"
            state.dice = [3, 4]
            state.discards_owed = [0] * state.players
            state.discards_owed[seat] = 4

        self.forge(seven)
        page.reload()
        page.wait_for_selector("#btn-discard", state="attached", timeout=10000)
        page.click("#dialog-cancel")
        self.check(page, "discard", sizes, phone)
        self.click_action(page, "btn-discard")
        for resource in ["lumber", "brick", "wool", "grain"]:
            page.click(f"#discard-{resource} [data-plus]")
        page.click("#dialog-confirm")

    def finish_robber(self, page) -> None:
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
                page.click("#btn-discard")
            page.wait_for_timeout(200)

    @staticmethod
    def in_menu(page, button: str) -> bool:
        return button in page.evaluate(MENU)["inMenu"]

    def click_action(self, page, button: str) -> None:
        """Click an action where it is: in the bar, or in its "more" menu (opened first)."""
        if self.in_menu(page, button):
            page.click("#btn-more")
            page.wait_for_selector("#actions-more-menu:not([hidden])")
            problems = page.evaluate(
                """() => [...document.querySelectorAll('#actions-more-menu .button')].flatMap((b) => {
                     const r = b.getBoundingClientRect();
                     return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth ? []
                       : [`${b.id} out of view`];
                   })"""
            )
            assert not problems, problems
        page.click(f"#{button}")

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
        page.errors = []
        page.socket_log = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        with self.reporting(page):
            self.start_game_against_bots(page, "phone")
            # Sounds are off by default on a touch screen.
            assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
            self.play_turns(page, [PHONE], phone=True, turns=2)
            page.screenshot(path=str(ARTIFACTS / "layout-phone-fr.png"))
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
        self.target = 33
        with self.reporting(page):
            self.start_game_against_bots(page, "sailor", choices={"scenario": "new_shores"})
            self.play_turns(page, [*LAPTOPS, PHONE], phone=False, turns=10, crowd=False)
            assert not page.errors, page.errors
