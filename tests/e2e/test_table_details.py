"""Details of the table that issue 17 asked for, in one private Four Islands game against two bots: the invite
link's Copy button, the prompt after picking a ship to move, the French Monopoly log line and the counter-offer log
line read the right way round. Positions are forged in the stored game (rules.position) between page loads."""

from __future__ import annotations

import pytest

import rules
from games.models import Game, Move, Seat
from tests.e2e.base import ARTIFACTS, BrowserCase

pytestmark = pytest.mark.e2e

# four_islands_3, seed 1: a settlement on 16 with ships 24 and 39, whose open end may move
# (tests/rules/test_rule_fidelity.py builds the same position).
SHIPS = {"settlements": [16], "ships": [24, 39]}


def text_of(locator) -> str:
    """The element's text with runs of spaces (around the resource icons) made one."""
    return " ".join(locator.inner_text().split())


class TableDetailsTests(BrowserCase):
    def test_copy_ship_prompt_monopoly_in_french_and_counter_offer(self):
        page = self.new_page(1366, 768)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=self.live_server_url)
        with self.reporting(page):
            self.start_game_against_bots(
                page,
                "alice",
                bots=2,
                choices={"scenario": "four_islands", "seat_count": "3", "visibility": "private"},
                before_start=lambda: self.check_copy_invite(page),
            )
            self.my_turn(page)
            game = Game.objects.order_by("-pk").first()
            me = Seat.objects.get(game=game, user__isnull=False)
            assert me.index == 0  # the bots take the last seats
            self.check_ship_prompt(page, game, me.index)
            self.check_french_monopoly(page, game, me)
            self.check_counter_line(page, game, me)
            assert not page.errors, page.errors

    def check_copy_invite(self, page) -> None:
        """The private game's waiting room: Copy puts the invite link on the clipboard and says so."""
        link = page.input_value("#invite-link")
        assert link.startswith(self.live_server_url) and "invite=" in link, link
        assert page.inner_text("#copy-invite") == "Copy"
        page.click("#copy-invite")
        page.wait_for_selector("#copy-invite:text-is('Copied')", timeout=5000)
        assert page.evaluate("navigator.clipboard.readText()") == link

    @staticmethod
    def forge(game: Game, state: rules.State) -> None:
        game.refresh_from_db()
        game.state = rules.dump(state)
        game.save()

    def check_ship_prompt(self, page, game: Game, seat: int) -> None:
        """After picking a ship to move the prompt says where to tap; picking it again, or moving it, puts the
        turn's prompt back."""
        seats = [{} for _ in range(game.seat_count)]
        seats[seat] = SHIPS
        state = rules.position(scenario="four_islands", players=3, seed=1, seats=seats, current=seat, phase="main")
        assert any(a["type"] == "move_ship" for a in rules.legal_actions(state, seat))
        self.forge(game, state)
        page.reload()
        page.wait_for_selector("#prompt[data-mine=yes]", timeout=10000)
        page.wait_for_selector("#board .ship-source", timeout=10000)
        main = "Build, trade, play a card — or end your turn."
        where = "Now tap where the ship goes (or the ship again to keep it)."
        assert page.inner_text("#prompt-text") == main
        # Playwright finds a ship's spot "not stable" (its mark pulses), though its box holds still from frame to
        # frame: click without that wait (still at the spot's centre, so whatever lies on top there gets the click).
        page.locator("#board .ship-source .hit").first.click(force=True)
        assert page.inner_text("#prompt-text") == where
        assert page.locator("#board .move-ship-spot").count() > 0
        page.screenshot(path=str(ARTIFACTS / "move-ship-prompt.png"))
        page.locator("#board .ship-source.selected .hit").click(force=True)
        assert page.inner_text("#prompt-text") == main
        assert page.locator("#board .move-ship-spot").count() == 0
        page.locator("#board .ship-source .hit").first.click(force=True)
        assert page.inner_text("#prompt-text") == where
        page.locator("#board .move-ship-spot .hit").first.click(force=True)
        page.wait_for_selector(f"#game-log li[data-type=moved_ship][data-seq='{game.seq + 1}']", timeout=10000)
        self.wait_until(page, f"document.getElementById('prompt-text').textContent === {main!r}")
        assert Move.objects.filter(game=game, action__type="move_ship").count() == 1

    def check_french_monopoly(self, page, game: Game, me: Seat) -> None:
        """In French the Monopoly line names the resource, the count and each victim with their count."""
        game.refresh_from_db()
        game.seq += 1
        game.save()
        event = {"type": "played_monopoly", "seat": 1, "resource": "grain", "taken": {str(me.index): 2, "2": 1}}
        Move.objects.create(
            game=game, seq=game.seq, seat=1, action={"type": "play_monopoly", "resource": "grain"}, events=[event]
        )
        page.context.add_cookies([{"name": "django_language", "value": "fr", "url": self.live_server_url}])
        page.reload()
        page.wait_for_selector("html[lang=fr] #board polygon")
        line = page.locator("#game-log li[data-type=played_monopoly]")
        line.wait_for(timeout=10000)
        expected = f"Robot 2 a joué Monopole sur Blé et a pris 3 cartes à {me.user.label} (2), Robot 3 (1)"
        assert text_of(line) == expected, text_of(line)
        page.screenshot(path=str(ARTIFACTS / "monopoly-fr.png"))
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": self.live_server_url}])

    def check_counter_line(self, page, game: Game, me: Seat) -> None:
        """A bot offers Brick for Wool; alice counters, giving Lumber for Brick: the log says she gives Lumber and
        gets Brick."""
        bot = next(s for s in range(game.seat_count) if s != me.index)
        seats = [{} for _ in range(game.seat_count)]
        seats[me.index] = {**SHIPS, "hand": {"lumber": 2}}
        seats[bot] = {"hand": {"brick": 1}}
        state = rules.position(scenario="four_islands", players=3, seed=1, seats=seats, current=bot, phase="main")
        rules.apply(state, bot, {"type": "offer_trade", "give": {"brick": 1}, "get": {"wool": 1}, "to": [me.index]})
        self.forge(game, state)
        page.reload()
        page.wait_for_selector("html[lang=en] #btn-counter-trade", timeout=10000)
        page.click("#btn-counter-trade")
        # The dialog starts from the offer seen from alice's side (she gets the Brick); she gives a Lumber.
        page.click("#offer-give-lumber [data-plus]")
        assert page.inner_text("#dialog .summary") == "You give 1 Lumber and get 1 Brick.", page.inner_text(
            "#dialog .summary"
        )
        page.click("#dialog-confirm")
        line = page.locator("#game-log li[data-type=trade_reply]", has_text=f"{me.user.label} counters")
        line.wait_for(timeout=10000)
        assert text_of(line) == f"{me.user.label} counters: 1 Lumber for 1 Brick", text_of(line)
        stored = Move.objects.get(game=game, action__type="counter_trade")
        assert stored.action["give"] == {"brick": 1} and stored.action["get"] == {"lumber": 1}, stored.action
