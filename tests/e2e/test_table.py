"""The table at laptop and phone sizes: the prompt, the action bar and an open offer stay on screen at each step
of a turn; one game is reused for every size (the window is resized between checks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules
from games.models import Game, Move
from tests.e2e.base import ARTIFACTS, BrowserCase

pytestmark = pytest.mark.e2e

VIEWPORTS = [(1366, 768), (1280, 720), (390, 844)]
# Above 2**53: a JavaScript number would show it rounded (2393163632845255000).
BIG_SEED = 2393163632845255362
ALWAYS = ["#prompt", "#actions", "#trade-panel"]


LOCALE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES"
GAME_TEMPLATE = Path(__file__).resolve().parents[2] / "templates" / "games" / "game.html"


def po_entries(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) of a .po file, plurals by their first forms."""
    entries, field, values = [], None, {}
    for line in [*path.read_text().splitlines(), ""]:
        match = re.match(r'^(msgid|msgid_plural|msgstr|msgstr\[0\])\s+"(.*)"$', line)
        if match:
            field = match.group(1).replace("[0]", "")
            values[field] = match.group(2)
        elif line.startswith('"') and field:
            values[field] += line[1:-1]
        elif not line.strip():
            if values.get("msgid"):
                entries.append((values["msgid"], values.get("msgstr", "")))
            field, values = None, {}
    return entries


def english_fragments() -> set[str]:
    """Runs of English words (two or more) of every translated string the game page can show."""
    in_template = GAME_TEMPLATE.read_text()
    entries = po_entries(LOCALE / "djangojs.po")
    entries += [(msgid, msgstr) for msgid, msgstr in po_entries(LOCALE / "django.po") if f'"{msgid}"' in in_template]
    fragments = set()
    for msgid, msgstr in entries:
        if not msgstr or msgstr == msgid:
            continue
        for fragment in re.split(r"\{\w+\}|%\(\w+\)s", msgid):
            fragment = fragment.strip(" .,:;()!?")
            if len(fragment) >= 8 and " " in fragment and fragment not in msgstr:
                fragments.add(fragment)
    return fragments


class TableTests(BrowserCase):
    def check_every_size(self, page, step: str, must_show: list[str]) -> None:
        """At each viewport: the prompt, the action bar, any open offer and `must_show` are wholly on screen."""
        for width, height in VIEWPORTS:
            self.resize_table(page, width, height)
            for selector in must_show:
                assert page.locator(selector).count(), f"{step}: {selector} missing at {width}x{height}"
            off = self.off_screen(page, ALWAYS + must_show) + self.overlapping(page, "#trade-panel", "#actions")
            if step == "main phase":
                page.screenshot(path=str(ARTIFACTS / f"turn-{width}x{height}.png"))
            assert not off, f"{step} at {width}x{height}: {off}"
        # Back to the first size, rendered at it (the bar fitted to the last, narrower size kept its greyed
        # buttons in the "More" menu, and a check made before the new render saw them missing: a CI failure).
        self.resize_table(page, *VIEWPORTS[0])

    @staticmethod
    def overlapping(page, first: str, second: str) -> list[str]:
        """[a note] when both are shown and one covers part of the other, else []."""
        return page.evaluate(
            """([a, b]) => {
                 const boxes = [a, b].map((s) => document.querySelector(s)).filter((e) => e && !e.hidden
                   && e.getClientRects().length).map((e) => e.getBoundingClientRect());
                 if (boxes.length < 2) return [];
                 const [p, q] = boxes;
                 const apart = p.bottom <= q.top + 1 || q.bottom <= p.top + 1
                   || p.right <= q.left + 1 || q.right <= p.left + 1;
                 return apart ? [] : [`${a} covers ${b}`];
               }""",
            [first, second],
        )

    def wait_checking_offers(self, page, selector: str, timeout_ms: int = 45000) -> None:
        """Wait for `selector`; a bot's offer meanwhile is checked on screen at every size, then turned down."""
        for _ in range(timeout_ms // 200):
            if page.locator(selector).count():
                return
            if page.locator("#btn-reject-trade").count():
                self.check_every_size(page, "incoming offer", ["#btn-reject-trade", "#btn-counter-trade"])
                page.locator("#btn-reject-trade").click()
            page.wait_for_timeout(200)
        raise AssertionError(f"{selector} did not appear")

    def test_prompt_actions_and_offers_stay_on_screen(self):
        page = self.new_page(*VIEWPORTS[0])
        with self.reporting(page):
            self.play_a_turn_checking_the_screen(page)

    @staticmethod
    def check_greyed_buttons_look_alike(page) -> None:
        """Issue 27 item 9: a greyed Bank trade or Offer a trade was pale orange and looked clickable, where the
        greyed build buttons were grey: every greyed action button now looks the same."""
        looks = page.evaluate(
            """() => [...document.querySelectorAll('#actions .button:disabled')]
                 .map((b) => [b.id, getComputedStyle(b).backgroundColor])"""
        )
        ids = {button for button, _colour in looks}
        assert {"btn-trade-bank", "btn-offer-trade", "btn-build-road"} <= ids, looks
        assert len({colour for _button, colour in looks}) == 1, looks

    @staticmethod
    def check_cost_card(page) -> None:
        """Each piece the hand cannot pay for is greyed on the cost card, with what is missing."""
        rows = page.evaluate(
            """() => {
                 const hand = Object.fromEntries([...document.querySelectorAll('#hand .res-card')]
                   .map((c) => [c.dataset.resource, Number(c.querySelector('.res-count').textContent)]));
                 return [...document.querySelectorAll('#costs li')].map((li) => {
                   const need = {};
                   for (const chip of li.querySelectorAll('.cost-chip'))
                     need[chip.dataset.resource] = (need[chip.dataset.resource] || 0) + 1;
                   const affordable = Object.entries(need).every(([r, n]) => (hand[r] || 0) >= n);
                   return [li.dataset.piece, affordable, li.classList.contains('short'), li.title];
                 });
               }"""
        )
        assert rows and all(short == (not affordable) for _piece, affordable, short, _title in rows), rows
        assert all(title.startswith("Missing: ") for _piece, _affordable, short, title in rows if short), rows
        assert any(short for _piece, _affordable, short, _title in rows), rows  # a city needs 5 cards after set-up

    def play_a_turn_checking_the_screen(self, page) -> None:
        self.sign_up(page, "laptop")
        self.check_pages(page)
        page.click("#new-game")
        self.check_new_game_form(page)
        page.select_option("select[name=bots]", "3")
        page.click("#create-game")
        page.click("#start-game")
        page.wait_for_selector("#board polygon")
        self.my_turn(page)
        self.check_every_size(page, "first settlement", ["#prompt[data-mine=yes]"])
        self.place_setup(page)
        self.wait_checking_offers(page, "#btn-roll:enabled")
        self.check_every_size(page, "roll", ["#btn-roll"])
        # Build buttons stay in the bar, greyed with the reason, and the cost card lists what each piece takes.
        assert page.get_attribute("#btn-build-road", "data-reason") == "Roll the dice first"
        self.check_greyed_buttons_look_alike(page)
        assert page.locator("#costs li").count() == 4
        self.check_cost_card(page)
        page.click("#btn-roll:enabled")
        page.wait_for_selector(
            "#btn-end-turn:enabled, .legal-spot[data-action*='move_robber'], #dialog-confirm", timeout=10000
        )
        if page.locator(".legal-spot[data-action*='move_robber']").count():
            page.locator(".legal-spot.hex-spot").first.click()
            if page.locator("#dialog .button.victim").count():
                page.locator("#dialog .button.victim").first.click()
        page.wait_for_selector("#btn-end-turn:enabled", timeout=10000)
        self.check_every_size(page, "main phase", ["#btn-end-turn", "#last-roll"])
        self.check_build_buttons(page)

        held = self.held(page)
        if not held:
            # Setup beside the desert and the sea, or a robbed card: a card from the bank to offer.
            self.give_a_card()
            page.reload()
            page.wait_for_selector("#btn-end-turn:enabled")
            held = self.held(page)
        assert held, "no card in hand"
        wanted = next(r for r in ["ore", "grain", "wool", "brick", "lumber"] if r != held[0])
        page.click("#btn-offer-trade")
        assert page.inner_text("#dialog .summary") == "Choose at least one card to give and one to get."
        page.click(f"#offer-give-{held[0]} [data-plus]")
        page.click(f"#offer-get-{wanted} [data-plus]")
        page.click("#dialog-confirm")
        page.wait_for_selector("#btn-cancel-trade", timeout=10000)
        self.wait_until(page, "!document.querySelector('#trade-panel .reply.pending')", timeout=20)
        self.check_every_size(page, "answers to my offer", ["#btn-cancel-trade"])
        page.click("#btn-cancel-trade")
        page.wait_for_selector("#btn-end-turn:enabled", timeout=10000)
        page.click("#btn-end-turn")
        page.wait_for_selector("#btn-end-turn:disabled", timeout=10000)
        # The bots play; once it is this player's turn again nothing else moves, and the game is ended from here.
        self.wait_checking_offers(page, "#btn-roll:enabled")
        self.check_log(page)
        self.finish_with_a_monopoly()
        page.reload()
        page.wait_for_selector("#game-over:not([hidden]) #seed")
        self.check_end(page)

    def check_pages(self, page) -> None:
        """Unknown addresses and games get the site's own 404 page, not a list of URL patterns."""
        for path in ["/no-such-page/", "/games/999999/"]:
            response = page.goto(f"{self.live_server_url}{path}")
            assert response.status == 404
            assert page.locator("#not-found, .card h1").count() and "URLconf" not in page.content()
        page.goto(f"{self.live_server_url}/")

    @staticmethod
    def check_new_game_form(page) -> None:
        """Checkboxes sit beside their labels; the hours per move show only for play by email; what happens when
        time runs out only when a clock can run out (not with "No turn clock")."""
        box = page.locator("[data-field=friendly_robber] input").bounding_box()
        label = page.locator("[data-field=friendly_robber] label").bounding_box()
        assert abs((box["y"] + box["height"] / 2) - (label["y"] + label["height"] / 2)) < 8, (box, label)
        assert not page.locator("[data-field=move_hours]").is_visible()
        policy = page.locator("[data-field=timeout_policy]")
        assert page.locator("select[name=turn_seconds]").input_value() == "" and not policy.is_visible()
        page.select_option("select[name=turn_seconds]", "60")
        assert policy.is_visible()
        page.select_option("select[name=turn_seconds]", "")
        assert not policy.is_visible()
        page.select_option("select[name=clock]", "async")
        assert page.locator("[data-field=move_hours]").is_visible() and policy.is_visible()
        page.select_option("select[name=clock]", "live")

    @staticmethod
    def check_log(page) -> None:
        """The log says who starts, where each piece was built (hovering marks it), with resource icons; the bots'
        moves were captioned over the board."""
        log = page.locator("#game-log")
        assert "starts the game" in log.locator("li").first.inner_text()
        road = log.locator("li[data-type=built_road]").first
        assert " at " in road.inner_text(), road.inner_text()
        road.hover()
        assert page.locator("#board .hover-mark").count() == 1
        page.screenshot(path=str(ARTIFACTS / "log-hover.png"))
        page.mouse.move(0, 0)
        assert page.locator("#board .hover-mark").count() == 0
        assert log.locator(".res-icon").count() > 0
        captioned = page.get_attribute("#caption", "data-seat")
        assert captioned is not None and captioned != page.get_attribute("#game-root", "data-your-seat")

    @staticmethod
    def check_build_buttons(page) -> None:
        """Each Build button is usable or says why not; a usable one lights its own spots and no others."""
        for piece in ["road", "settlement", "city"]:
            selector = f"#btn-build-{piece}"
            if page.locator(f"{selector}:disabled").count():
                assert page.get_attribute(selector, "data-reason"), f"{piece} is greyed without a reason"
                continue
            assert page.locator(".legal-spot[data-action*='build_']").count() == 0
            page.click(selector)
            assert page.get_attribute(selector, "aria-pressed") == "true"
            lit = page.eval_on_selector_all(
                ".legal-spot[data-action*='build_']", "spots => spots.map(s => s.dataset.action)"
            )
            assert lit and all(f'"build_{piece}"' in action for action in lit), lit
            page.click(selector)

    @staticmethod
    def held(page) -> list[str]:
        return page.evaluate(
            "[...document.querySelectorAll('#hand .res-card')].filter((c) => +c.querySelector('.res-count')"
            ".textContent > 0).map((c) => c.dataset.resource)"
        )

    @staticmethod
    def give_a_card() -> None:
        """One lumber from the bank to the seat to move, in the stored game (the server reads it on every move)."""
        game = Game.objects.order_by("-pk").first()
        state = rules.load(game.state)
        seat = rules.to_move(state)[0]
        state.hands[seat][0] += 1
        state.bank[0] -= 1
        game.state = rules.dump(state)
        game.save()

    def finish_with_a_monopoly(self) -> None:
        """Bots play the stored game to its end; the last move is a Monopoly that took grain from two seats."""
        game = self.finish_stored_game(seed=BIG_SEED)
        event = {"type": "played_monopoly", "seat": 1, "resource": "grain", "taken": {"0": 2, "2": 1}}
        Move.objects.create(
            game=game, seq=game.seq, seat=1, action={"type": "play_monopoly", "resource": "grain"}, events=[event]
        )

    def check_end(self, page) -> None:
        seed = page.inner_text("#seed")
        assert str(BIG_SEED) in seed and Game.objects.order_by("-pk").first().seed_salt in seed
        last = Game.objects.order_by("-pk").first().seq  # the scripted Monopoly (bots may have played one before)
        monopoly = page.locator(f'#game-log li[data-type=played_monopoly][data-seq="{last}"]')
        monopoly.wait_for(timeout=10000)
        line = monopoly.inner_text()
        assert "Grain" in line and "3" in line and "Bot 3 (1)" in line and "(2)" in line, line
        assert page.get_attribute("#connection", "data-state") == "ended"
        for width, height in VIEWPORTS:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            top = page.evaluate("document.getElementById('game-over').getBoundingClientRect().top")
            assert 0 <= top < height / 2, f"the end panel starts at {top} in {width}x{height}"
            page.screenshot(path=str(ARTIFACTS / f"end-{width}x{height}.png"))
        assert not page.errors, page.errors
        self.resize_table(page, *VIEWPORTS[0])
        page.click("#btn-rematch")
        page.wait_for_selector("#start-game")
        assert Game.objects.filter(status=Game.Status.WAITING).count() == 1

    def test_a_coastal_edge_offers_a_road_or_a_ship(self):
        page = self.new_page(*VIEWPORTS[0])
        with self.reporting(page):
            self.start_game_against_bots(page, "sailor", choices={"scenario": "new_shores"})
            self.my_turn(page)
            seat, vertex = self.coastal_vertex()
            page.click(f".legal-spot[data-action*='\"vertex\":{vertex}}}']")
            page.locator(".road-ship-spot").first.click()
            page.wait_for_selector("#choose-road")
            page.screenshot(path=str(ARTIFACTS / "road-or-ship.png"))
            page.click("#choose-ship")
            page.wait_for_selector(f"#board .ship[data-seat='{seat}']", timeout=10000)
            assert page.locator(f"#board .road[data-seat='{seat}']").count() == 0
            self.check_phone(page)
            self.check_french(page)
            assert not page.errors, page.errors

    @staticmethod
    def check_phone(page) -> None:
        """On a phone a wide Seafarers map's frame fits the width (no sideways overflow: the board scrolls inside
        its frame when zoomed) and zooms with the buttons; the header is one slim row."""
        BrowserCase.resize_table(page, 390, 844)
        board = "document.getElementById('board').getBoundingClientRect().width"
        assert page.evaluate("document.getElementById('board-wrap').getBoundingClientRect().width") <= 390
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height") < 60
        width = page.evaluate(board)
        page.click("#zoom-in")
        assert page.evaluate(board) > width * 1.3
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.screenshot(path=str(ARTIFACTS / "phone-zoomed.png"))
        page.click("#zoom-out")
        assert page.evaluate(board) == width
        page.set_viewport_size({"width": VIEWPORTS[0][0], "height": VIEWPORTS[0][1]})

    @staticmethod
    def check_french(page) -> None:
        """In French, no English text of the client's catalogue or of the game page's template is left."""
        page.select_option("select[name=language]", "fr")
        page.wait_for_selector("html[lang=fr] #board polygon")
        page.wait_for_selector("#game-log li")
        text = page.inner_text("body")
        left = [fragment for fragment in english_fragments() if fragment in text]
        page.screenshot(path=str(ARTIFACTS / "french.png"))
        assert not left, left

    @staticmethod
    def coastal_vertex() -> tuple[int, int]:
        """A corner where the first settlement leaves an edge that takes a road or a ship."""
        game = Game.objects.order_by("-pk").first()
        state = rules.load(game.state)
        seat = rules.to_move(state)[0]
        for action in rules.legal_actions(state, seat):
            trial = rules.load(rules.dump(state))
            rules.apply(trial, seat, action)
            after = rules.legal_actions(trial, seat)
            roads = {a["edge"] for a in after if a["type"] == "build_road"}
            if any(a["type"] == "build_ship" and a["edge"] in roads for a in after):
                return seat, action["vertex"]
        raise AssertionError("no coastal corner")

    def test_a_live_turn_clock_runs_out_and_the_policy_plays(self):
        page = self.new_page(*VIEWPORTS[0])
        with self.reporting(page):

            def four_seconds_and_the_person_starts() -> None:
                # A minute is the form's shortest turn; the test's game runs on 4 seconds. The person (seat 0)
                # starts, so the timed-out move is the game's first: its log line follows "… starts the game".
                waiting = Game.objects.filter(status=Game.Status.WAITING).latest("pk")
                waiting.turn_seconds = 4
                waiting.options = {**waiting.options, "seat_order": "fixed"}
                waiting.save(update_fields=["turn_seconds", "options"])

            self.start_game_against_bots(
                page, "slowpoke", choices={"turn_seconds": "60"}, before_start=four_seconds_and_the_person_starts
            )
            game = Game.objects.order_by("-pk").first()
            self.my_turn(page)
            clock = page.locator("#turn-clock")
            assert clock.is_visible() and int(clock.get_attribute("data-left")) <= 4
            page.wait_for_selector("#turn-clock[data-warn=yes]", timeout=5000)
            page.screenshot(path=str(ARTIFACTS / "turn-clock.png"))
            seat = int(page.get_attribute("#game-root", "data-your-seat"))
            # Nobody clicks: when the clock runs out the game's policy (a bot) places this seat's settlement.
            page.wait_for_selector(f"#board .settlement[data-seat='{seat}']", timeout=15000)
            assert Move.objects.filter(game=game, seat=seat, cause="timeout").exists()
            # The log tells this player what was done for them.
            timed_out = page.locator("#game-log li[data-type=timeout]").first
            timed_out.wait_for(timeout=10000)
            assert timed_out.inner_text() == "Your time ran out: a bot played for you", timed_out.inner_text()
            first = page.locator("#game-log li").first
            assert "starts the game" in first.inner_text() and first.get_attribute("data-type") == "game_started"
            assert not page.errors, page.errors

    def test_phone_spots_caption_and_action_bar(self):
        """At 390x844 on The Great Crossing fitted to the width: legal set-up spots keep a tappable size on screen,
        a bot's caption sits below the board (not over its top fifth), and the fixed action bar is opaque."""
        page = self.new_page(390, 844)
        with self.reporting(page):
            self.start_game_against_bots(page, "thumbs", choices={"scenario": "great_crossing"})
            self.my_turn(page)
            sizes = page.eval_on_selector_all(
                ".legal-spot.vertex-spot .mark", "marks => marks.map((m) => m.getBoundingClientRect().width)"
            )
            assert sizes and min(sizes) >= 13, sizes  # at least 13 px across (was ~6)
            page.screenshot(path=str(ARTIFACTS / "phone-setup-spots.png"))
            for _ in range(2):  # the set-up: a settlement, then its road or ship (the choice when both are legal)
                self.my_turn(page)
                self.click_spot(page, "build_settlement")
                page.locator(".legal-spot.edge-spot").first.click(timeout=10000)
                if page.locator("#choose-road").count():
                    page.click("#choose-road")
                page.wait_for_selector(
                    "#prompt[data-mine=no], .legal-spot[data-action*='build_settlement'], #btn-roll:enabled"
                )
            page.wait_for_selector("#caption[data-seat]", timeout=30000)
            board = page.evaluate("document.getElementById('board-wrap').getBoundingClientRect().bottom")
            caption = page.evaluate("document.getElementById('caption').getBoundingClientRect().top")
            assert caption >= board - 1, (caption, board)
            page.screenshot(path=str(ARTIFACTS / "phone-caption.png"))
            bar = page.evaluate("getComputedStyle(document.getElementById('actions')).backgroundColor")
            assert bar.startswith("rgb(") or bar.endswith(", 1)"), bar  # no alpha: nothing shows through
            faded = page.eval_on_selector_all(
                "#actions .button:disabled",
                "buttons => buttons.filter((b) => getComputedStyle(b).opacity !== '1').length",
            )
            assert faded == 0
            assert not page.errors, page.errors
