"""The table's layout measured with the browser's geometry (issue 27), shared by the layout tests: what is wrong
on screen at a given size (the prompt, the hand and every action button in view and apart, nothing over the board
or a legal spot, 44 px targets on a phone), and the steps of a person's turn that the tests take."""

from __future__ import annotations

import time

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import rules
from games.models import Game, Seat
from tests.e2e.base import ARTIFACTS

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
  const wrap = document.getElementById('board-wrap');
  const frame = box(wrap);
  const inFrame = (x, y) => x >= frame.left && x <= frame.right && y >= frame.top && y <= frame.bottom;
  for (const spot of document.querySelectorAll('#board .legal-spot, #board .legal-source')) {
    const mark = box(spot.querySelector('.mark'));
    const x = (mark.left + mark.right) / 2, y = (mark.top + mark.bottom) / 2;
    const name = spot.dataset.action || spot.dataset.from || spot.getAttribute('class');
    // A zoomed board scrolls inside its frame: a spot outside the frame's view must be within its scroll reach.
    if (!inFrame(x, y)) {
      const left = x - frame.left + wrap.scrollLeft, top = y - frame.top + wrap.scrollTop;
      if (wrap.scrollWidth <= wrap.clientWidth + 1 && wrap.scrollHeight <= wrap.clientHeight + 1
          || left < 0 || top < 0 || left > wrap.scrollWidth || top > wrap.scrollHeight) {
        problems.push(`${name} at ${Math.round(x)},${Math.round(y)} is outside the board's frame`);
      }
      continue;
    }
    const hit = document.elementFromPoint(x, y);
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


class LayoutSteps:
    """Checks and turn steps for a BrowserCase that plays at the table."""

    # The smallest tap target around a legal spot on a phone: 44 px, on every map (a wide Seafarers map fitted to a
    # phone's width zooms in by itself while the person has a spot to choose: static/js/zoom.js).
    target = 44

    def check(self, page, step: str, sizes: list[tuple[int, int]], phone: bool = False) -> None:
        for width, height in sizes:
            # Up to 860 px wide the table is the phone's: the hand is a strip, and every spot a 44 px target.
            small = phone or width <= 860
            hand = "#hand-strip" if small else "#hand"
            self.resize_table(page, width, height)
            page.wait_for_timeout(100)
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
            self.answer_bot_trades_until(page, ".legal-spot[data-action*='build_settlement'], #btn-roll:enabled", 90)
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
            self.answer_bot_trades_until(page, "#btn-roll:enabled", 90)
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
                    before = self.last_seq(page)
                    self.click_spot(page, "build_road")
                    self.wait_answered(page, before)
            self.end_turn(page)

    @staticmethod
    def last_seq(page) -> int:
        """The newest move in the game's log."""
        return page.evaluate(
            "() => Math.max(0, ...[...document.querySelectorAll('#game-log li[data-seq]')]"
            ".map((li) => +li.dataset.seq))"
        )

    def wait_answered(self, page, before: int, over: str = "", timeout: float = 15) -> None:
        """The move just made is answered: it is in the log (a move newer than `before`) and End turn is usable
        again (or `over`, a selector shown when the game ended, is there). The bar is disabled while a move
        travels; the log says which move the bar was enabled again for."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if over and page.locator(over).count():
                return
            if self.last_seq(page) > before and page.locator("#btn-end-turn:enabled").count():
                return
            page.wait_for_timeout(100)
        raise AssertionError(f"the move was not answered within {timeout} s")

    def end_turn(self, page, over: str = "") -> None:
        """Press End turn and wait for the turn to end (or for `over`, a selector shown when the game ended)."""
        done = "#btn-end-turn:disabled" + (f", {over}" if over else "")
        self.click_action(page, "btn-end-turn")
        try:
            page.wait_for_selector(done, state="attached", timeout=5000)
        except PlaywrightTimeoutError:
            # Once in five fresh-clone runs of the laptop test, a click on End turn right after a road was built
            # never reached the server (noted as open in the stop's note): press it again, as a person would.
            self.click_action(page, "btn-end-turn")
            page.wait_for_selector(done, state="attached", timeout=10000)

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
        # Four of four chosen: no + adds a fifth card (each resource held twice, so each + was still open).
        assert page.locator("#dialog [data-plus]:not(:disabled)").count() == 0
        page.click("#dialog-confirm")
