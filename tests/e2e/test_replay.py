"""The replay page in the browser, at laptop and phone sizes: a finished game's replay opened from its end screen,
stepped with the buttons and the arrow keys to a move whose link (?move=N) shows the same move again, every seat's
hand face up; a running game's replay shows its player their own seat only (in the page and in every answer the page
fetched), with the live game one click away; a spectator of a running game cannot open it."""

from __future__ import annotations

import re

import pytest

import rules
from games.models import Game, Move
from rules.constants import RESOURCES
from tests.e2e.base import ARTIFACTS, BrowserCase
from tests.factories import UserFactory
from tests.replays.test_replays_api import _play_until_others_hide_something
from tests.replays.test_stats_browser import play_to_end

pytestmark = pytest.mark.e2e

LAPTOP, PHONE = (1366, 768), (390, 844)
CONTROLS = [
    "#replay-board",
    "#replay-first",
    "#replay-back-step",
    "#replay-scrubber",
    "#replay-forward",
    "#replay-last",
]
HIDDEN = ("resources", "development", "development_new")

# What the page shows of the move on screen: its number, the highlighted log lines, the board and each seat's hand.
SHOWN = """() => ({
  shown: document.getElementById('replay').dataset.shown,
  status: document.getElementById('replay-status').textContent,
  current: [...document.querySelectorAll('#replay-log li.current')].map((li) => [li.dataset.seq, li.textContent]),
  board: document.getElementById('replay-board').innerHTML,
  hands: [...document.querySelectorAll('#replay-seats .replay-hand')].map((hand) => [Number(hand.dataset.seat),
    Object.fromEntries([...hand.querySelectorAll('.res-card')].map((card) => [card.dataset.resource,
      Number(card.querySelector('.res-count').textContent)]))]),
  hidden: [...document.querySelectorAll('#replay-seats .replay-hidden-hand')].map((p) => Number(p.dataset.seat)),
  settlements: document.querySelectorAll('#replay-board .settlement').length,
  cities: document.querySelectorAll('#replay-board .city').length,
  roads: document.querySelectorAll('#replay-board .road').length,
})"""

# Each control's box, and whether the page scrolls sideways.
BOXES = """(selectors) => ({
  page: document.documentElement.scrollWidth,
  boxes: selectors.map((s) => { const r = document.querySelector(s).getBoundingClientRect();
                                return [s, r.left, r.top, r.right, r.bottom, r.width, r.height]; }),
})"""


def position_after(game: Game, move: int) -> rules.State:
    """The engine's own position after `move` moves of the stored log."""
    state = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    for seat, action in Move.objects.filter(game=game, seq__lte=move).order_by("seq").values_list("seat", "action"):
        rules.apply(state, seat, action)
    return state


class ReplayBrowserTest(BrowserCase):
    def wait_shown(self, page, move: int) -> None:
        self.wait_until(
            page,
            f"document.getElementById('replay').dataset.shown === '{move}' && "
            "!document.getElementById('replay').dataset.loading",
            timeout=20,
        )

    def check_fits(self, page, width: int, height: int) -> None:
        """Board, scrubber and step buttons in one screen, each button a 44 px touch target; no sideways scroll."""
        page.evaluate("window.scrollTo(0, 0)")
        assert not self.off_screen(page, CONTROLS), self.off_screen(page, CONTROLS)
        fit = page.evaluate(BOXES, CONTROLS)
        assert fit["page"] <= width, f"the page scrolls sideways at {width}: {fit['page']}"
        for selector, _left, _top, _right, _bottom, box_width, box_height in fit["boxes"]:
            if selector != "#replay-board":
                assert box_height >= 44 and box_width >= 44, f"{selector} is {box_width}x{box_height} at {width}"
        board = fit["boxes"][0]
        assert board[6] > 200 and board[5] > 300, f"the board is only {board[5]}x{board[6]} at {width}x{height}"

    def test_a_finished_game_replayed_from_its_end_screen_and_shared_by_link(self):
        page = self.new_page(*LAPTOP)
        with self.reporting(page):
            self.start_game_against_bots(page, "replayer")
            game = play_to_end(Game.objects.order_by("-pk").first())
            assert game.status == Game.Status.FINISHED and game.winner_seat is not None
            page.reload()
            link = page.locator("#game-over:not([hidden]) #game-replay-end-link")
            link.wait_for(timeout=20000)
            link.click()
            page.wait_for_url(f"**/games/{game.pk}/replay/")
            self.wait_shown(page, 0)  # a finished game starts from the empty board
            assert "move=0" in page.url
            moves = game.seq
            assert page.locator("#replay-scrubber").get_attribute("max") == str(moves)
            self.check_fits(page, *LAPTOP)

            # Buttons and keys: Home, two steps forward, two arrows, End, two arrows back, one step back.
            page.click("#replay-forward")
            page.click("#replay-forward")
            self.wait_shown(page, 2)
            page.locator("body").press("ArrowRight")
            page.locator("body").press("ArrowRight")
            self.wait_shown(page, 4)
            page.locator("body").press("End")
            self.wait_shown(page, moves)
            assert page.locator("#replay-forward").is_disabled() and page.locator("#replay-last").is_disabled()
            page.locator("body").press("ArrowLeft")
            page.locator("body").press("ArrowLeft")
            page.click("#replay-back-step")
            target = moves - 3
            self.wait_shown(page, target)
            assert page.url.endswith(f"/games/{game.pk}/replay/?move={target}"), page.url
            assert page.locator("#replay-scrubber").input_value() == str(target)
            stepped = page.evaluate(SHOWN)
            assert f"{target}" in stepped["status"] and str(moves) in stepped["status"], stepped["status"]

            # What the engine says of that position: every seat's hand, face up; the pieces on the board.
            state = position_after(game, target)
            assert stepped["hidden"] == []
            assert stepped["hands"] == [
                [seat, dict(zip(RESOURCES, state.hands[seat], strict=True))] for seat in range(game.seat_count)
            ]
            view = rules.view(state, None)
            assert stepped["settlements"] == len(view["pieces"]["settlements"])
            assert stepped["cities"] == len(view["pieces"]["cities"])
            assert stepped["roads"] == len(view["pieces"]["roads"])
            # The move's log lines, and only they, are highlighted; the log is scrolled to them.
            assert stepped["current"] and {seq for seq, _text in stepped["current"]} == {str(target)}
            assert page.evaluate(
                """() => { const log = document.getElementById('replay-log');
                           const li = log.querySelector('li.current').getBoundingClientRect();
                           const box = log.getBoundingClientRect();
                           return li.top >= box.top - 1 && li.bottom <= box.bottom + 1; }"""
            ), "the highlighted line is scrolled out of the log"
            assert "null" not in page.inner_text("#replay-seats")
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(ARTIFACTS / "replay-1366x768.png"))
            # A click on a log line shows its move.
            page.locator('#replay-log li[data-seq="1"]').first.click()
            self.wait_shown(page, 1)
            page.locator("body").press("Home")
            self.wait_shown(page, 0)
            assert page.evaluate(SHOWN)["current"] == []
            assert not page.errors, page.errors

            # The shared link on a phone, by someone else (not logged in): the same move, the same lines, the same
            # board and hands; everything needed in one screen.
            phone = self.new_page(*PHONE)
            phone.goto(f"{self.live_server_url}/games/{game.pk}/replay/?move={target}")
            self.wait_shown(phone, target)
            shared = phone.evaluate(SHOWN)
            for key in ("current", "board", "hands", "hidden", "settlements", "cities", "roads", "status"):
                assert shared[key] == stepped[key], key
            self.check_fits(phone, *PHONE)
            phone.evaluate("window.scrollTo(0, 0)")
            phone.screenshot(path=str(ARTIFACTS / "replay-390x844.png"))
            phone.click("#replay-forward")
            self.wait_shown(phone, target + 1)
            assert phone.url.endswith(f"?move={target + 1}")
            assert not phone.errors, phone.errors
            phone.context.close()

            # In French: the page's and the client's words.
            french = self.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, locale="fr-FR")
            tab = french.new_page()
            tab.goto(f"{self.live_server_url}/games/{game.pk}/replay/?move={target}")
            self.wait_shown(tab, target)
            assert f"Coup {target} sur {moves}" in tab.inner_text("#replay-status")
            assert "Lien vers ce coup" in tab.inner_text("#replay-share")
            french.close()

    def test_a_running_game_replays_its_own_seat_only_and_not_to_spectators(self):
        page = self.new_page(*PHONE)
        with self.reporting(page):
            self.start_game_against_bots(page, "stepper")
            game = Game.objects.order_by("-pk").first()
            player = game.seats.get(index=0).user
            _play_until_others_hide_something(game, [player], humans=1)
            game.refresh_from_db()
            assert game.status == Game.Status.ACTIVE
            answers: list[dict] = []
            page.on(
                "response",
                lambda response: answers.append(response.json()) if "/replay/?" in response.url else None,
            )
            page.reload()
            page.locator("#game-replay-link").click()
            page.wait_for_url(re.compile(rf".*/games/{game.pk}/replay/.*"))
            game.refresh_from_db()
            self.wait_shown(page, game.seq)  # a running game opens at the live position, to step back from
            self.check_fits(page, *PHONE)
            for _ in range(3):
                page.locator("body").press("ArrowLeft")
            self.wait_shown(page, game.seq - 3)
            shown = page.evaluate(SHOWN)
            state = position_after(game, game.seq - 3)
            assert shown["hands"] == [[0, dict(zip(RESOURCES, state.hands[0], strict=True))]]
            assert shown["hidden"] == list(range(1, game.seat_count))
            page.click("#replay-first")
            self.wait_shown(page, 0)

            # Nothing another seat hid, in any answer the page fetched: hands, drawn cards, stolen cards.
            assert len(answers) >= 3
            for answer in answers:
                assert answer["viewer"] == 0 and not answer["revealed"]
                seats = answer["view"]["seats"]
                assert all(key in seats[0] for key in ("resources", "development"))
                assert not any(key in seat for seat in seats[1:] for key in HIDDEN)
                for entry in answer["log"]:
                    for event in entry["events"]:
                        assert "audience" not in event, event
                        assert not (event["type"] == "drew_development" and event["seat"] != 0), event
                        assert not (event["type"] == "stolen_card" and 0 not in (event["seat"], event["victim"])), event
            # The log the page wrote says seat 0's own draws and the thefts it took part in, no other.
            events = [e for m in Move.objects.filter(game=game) for e in m.events]
            own = [e for e in events if 0 in e.get("audience", [0])]
            for kind in ("drew_development", "stolen_card"):
                lines = page.locator(f'#replay-log li[data-type="{kind}"]').count()
                assert lines == sum(e["type"] == kind for e in own), kind
            assert len(events) - len(own) >= 2  # and there were others' secrets to keep
            assert not page.errors, page.errors

            # The live game, one click away.
            page.click("#replay-back")
            page.wait_for_url(f"**/games/{game.pk}/")
            page.wait_for_selector("#board polygon")

            # A spectator (logged in, or not) of the running game gets the refusal, and no replay link.
            watcher = self.new_page(*LAPTOP)
            self.log_in_on(watcher, UserFactory())
            response = watcher.goto(f"{self.live_server_url}/games/{game.pk}/replay/")
            assert response.status == 403
            assert watcher.locator("#replay-refused").count() == 1 and watcher.locator("#replay-board").count() == 0
            watcher.goto(f"{self.live_server_url}/games/{game.pk}/")
            watcher.wait_for_selector("#board polygon")
            assert watcher.locator("#game-replay-link").count() == 0
            watcher.context.close()
            anonymous = self.new_page(*LAPTOP)
            assert anonymous.goto(f"{self.live_server_url}/games/{game.pk}/replay/").status == 403
            anonymous.context.close()
