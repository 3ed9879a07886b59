"""Issue 41, item 5: a whole base game by keyboard only, against three bots, in English and then in French.

The person never clicks or taps: the log-in form is filled and sent with Enter; at the table the shortcuts (R, E,
1-3, S for the lit spots, M for the map), the arrow keys, Tab and Enter do everything, dialogs included. What the
person does is decided from the accessibility tree alone: the focused control's role and name, as Playwright's ARIA
snapshot gives them (a spot is named by its place, "Corner of Forest 6, Hills 8 and the sea: Build a settlement
here"), and the live region's words."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games import services
from games.models import Game
from tests.e2e.base import ARTIFACTS, PASSWORD, BrowserCase
from tests.factories import UserFactory

pytestmark = pytest.mark.e2e

# The words that tell the person's choices apart, in each language (from locale/fr/LC_MESSAGES/djangojs.po).
WORDS = {
    "en": {
        "corner": r"^((North|South)(-east|-west)? corner|Corner) of .+: (Build a settlement here|Upgrade to a city)$",
        "edge": r"^(Edge between|((North|South)(-east|-west)?|East|West) coast of|Sea by) .+: Build a road here$",
        "robber": r"^Move the robber to ",
        "more": r"^One more ",
        "discard": r"^Discard$",
        "reject": r"^Reject$",
        "map": "The map in words",
        "board": "Game board",
        "discard_title": r"^Discard \d+ cards?$",
        "victim_title": "Steal a card from whom?",
        "roll": "Roll dice",
        "end": "End turn",
        "city": "City",
        "settlement": "Settlement",
        "road": "Road",
    },
    "fr": {
        "corner": r"^Coin ((nord|sud)(-est|-ouest)? )?de .+ : (Construire une colonie ici|Transformer en ville)$",
        "edge": r"^(Bord entre|Côte (\S+ )?de|Mer près de) .+ : Construire une route ici$",
        "robber": r"^Déplacer le voleur ",
        "more": r"^Ajouter : ",
        "discard": r"^Défausser$",
        "reject": r"^Refuser$",
        "map": "La carte en mots",
        "board": "Plateau de jeu",
        "discard_title": r"^Défausser \d+ cartes?$",
        "victim_title": "Voler une carte à qui ?",
        "roll": "Lancer les dés",
        "end": "Finir le tour",
        "city": "Ville",
        "settlement": "Colonie",
        "road": "Route",
    },
}
OVER = "#game-over:not([hidden])"


class KeyboardGameTests(BrowserCase):
    def focused(self, page) -> tuple[str, str]:
        """(role, name) of the focused element, read from its ARIA snapshot ("- button \\"Corner of …\\"")."""
        if not page.locator(":focus").count():
            return "", ""
        try:  # the focus may move on between the two calls (a bot's move draws the board again)
            snapshot = page.locator(":focus").first.aria_snapshot(timeout=1000)
        except PlaywrightTimeoutError:
            return "", ""
        line = snapshot.splitlines()[0].removeprefix("- ")
        if line.startswith("'"):  # YAML quotes a line holding ": " ('button "Ajouter : Bois"': +)
            line = re.match(r"^'((?:[^']|'')*)'", line).group(1).replace("''", "'")
        match = re.match(r'^(\w+)(?: "((?:[^"\\]|\\.)*)")?', line)
        return (match.group(1), (match.group(2) or "").replace('\\"', '"')) if match else ("", line)

    def key(self, page, key: str) -> None:
        page.keyboard.press(key)
        page.wait_for_timeout(60)

    def tab_to(self, page, pattern: str, tabs: int = 120) -> bool:
        """Tab until a control whose name matches `pattern` has the focus; False when none comes round."""
        for _ in range(tabs):
            role, name = self.focused(page)
            if role == "button" and re.search(pattern, name):
                return True
            self.key(page, "Tab")
        return False

    def over(self, page) -> bool:
        return bool(page.locator(OVER).count())

    def choose_spot(self, page, words: dict[str, str], kind: str) -> str:
        """S to the lit spots, a step with an arrow key, then Enter: the spot's name is read from the tree."""
        self.key(page, "s")
        role, first = self.focused(page)
        assert role == "button" and re.search(words[kind], first), (role, first)
        for arrow in ("ArrowRight", "ArrowDown", "ArrowLeft"):
            self.key(page, arrow)
            role, name = self.focused(page)
            assert role == "button" and re.search(words[kind], name), (arrow, role, name)
        self.key(page, "Enter")
        self.spots_named.add(name)
        return name

    def check_spot_keys(self, page, words: dict[str, str]) -> None:
        """The set-up's lit corners: one of them in the Tab order, and every one reached from the first by the
        arrow keys (a walk that tries each arrow from each corner reached), each with a name of its own."""
        assert page.locator("#board [data-x][tabindex='0']").count() == 1
        count = page.locator("#board .legal-spot").count()
        self.key(page, "s")
        seen, todo = set(), [self.focused(page)[1]]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for arrow in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
                self.refocus(page, name)
                self.key(page, arrow)
                todo.append(self.focused(page)[1])
        assert all(re.search(words["corner"], name) for name in seen), seen
        assert len(seen) == count, f"{len(seen)} of {count} corners reached by the arrow keys"

    def refocus(self, page, name: str) -> None:
        """Back to the spot named `name`, by script: this walk checks the keys, it is not a move of the game."""
        if self.focused(page)[1] == name:
            return
        page.get_by_role("button", name=name, exact=True).focus()

    def answer_dialog(self, page, words: dict[str, str]) -> bool:
        """Discard (More … until the Discard button takes the focus), pick a victim, or close anything else."""
        if not page.get_by_role("dialog").count():
            return False
        if page.get_by_role("dialog", name=re.compile(words["discard_title"])).count():
            for _ in range(30):
                role, name = self.focused(page)
                if re.search(words["discard"], name):
                    self.key(page, "Enter")
                    self.discards += 1
                    break
                self.key(page, "Enter" if re.search(words["more"], name) else "Tab")
        elif page.get_by_role("dialog", name=words["victim_title"]).count():
            role, name = self.focused(page)
            assert role == "button", (role, name)
            self.key(page, "Enter")
        else:
            self.key(page, "Escape")
        page.wait_for_timeout(200)
        return True

    def decline_offers(self, page, words: dict[str, str]) -> bool:
        if not page.get_by_role("button", name=re.compile(words["reject"])).count():
            return False
        if self.tab_to(page, words["reject"]):
            self.key(page, "Enter")
            page.wait_for_timeout(200)
        return True

    @staticmethod
    def usable(page, name: str) -> bool:
        """A button of that name in the accessibility tree, not greyed."""
        return bool(page.get_by_role("button", name=name, exact=True, disabled=False).count())

    @staticmethod
    def spot_names(page, words: dict[str, str]) -> list[str]:
        """The names of the board's lit spots, as the accessibility tree gives them (the first three)."""
        snapshot = page.get_by_role("group", name=words["board"], exact=True).aria_snapshot(timeout=5000)
        names = re.findall(r'- button "((?:[^"\\]|\\.)*)"', snapshot)
        names += [n.replace("''", "'") for n in re.findall(r"- 'button \"((?:[^\"]|'')*)\"'", snapshot)]
        return names[:3]

    def asked(self, page, words: dict[str, str]) -> bool:
        """The person has something to decide, by the accessibility tree: a dialog, a lit spot, Roll, End turn, or
        an offer to turn down."""
        return bool(
            page.get_by_role("dialog").count()
            or self.spot_names(page, words)
            or self.usable(page, words["roll"])
            or self.usable(page, words["end"])
            or page.get_by_role("button", name=re.compile(words["reject"]), disabled=False).count()
        )

    def note(self, text: str) -> None:
        """The person's decisions, kept in test-artifacts/keyboard-game.log for a failed run."""
        with (ARTIFACTS / "keyboard-game.log").open("a") as log:
            log.write(f"{time.monotonic():.1f} {text}\n")

    def my_choice(self, page, words: dict[str, str]) -> None:
        """One decision of the person's, by keys alone."""
        self.note(f"focus: {self.focused(page)}")
        if self.answer_dialog(page, words) or self.decline_offers(page, words):
            return
        names = self.spot_names(page, words)
        if names and re.search(words["robber"], names[0]):
            self.choose_spot(page, words, "robber")
        elif names and re.search(words["corner"], names[0]):
            self.choose_spot(page, words, "corner")
        elif names and re.search(words["edge"], names[0]):
            self.choose_spot(page, words, "edge")
        elif self.usable(page, words["roll"]):
            self.key(page, "r")
            self.rolls += 1
        elif self.usable(page, words["end"]):
            for shortcut, piece in (("3", "city"), ("2", "settlement"), ("1", "road")):  # the best build with a spot
                if self.usable(page, words[piece]):
                    self.key(page, shortcut)
                    page.wait_for_timeout(150)
                    if self.spot_names(page, words):
                        return
                    self.key(page, shortcut)  # pressed, but no spot: let go
            self.key(page, "e")
        page.wait_for_timeout(150)

    @pytest.mark.timeout(900)
    def test_a_whole_base_game_by_keyboard_only_in_english_then_french(self):
        self.spots_named, self.rolls, self.discards = set(), 0, 0
        person = UserFactory(username="keys")
        game = services.game_create(creator=person, seat_count=4, bot_seats=[1, 2, 3], options={"seat_order": "fixed"})
        services.game_start(game_id=game.pk, user=person)
        page = self.new_page(1366, 768)
        with self.reporting(page):
            self.log_in_by_keys(page, person)
            page.goto(f"{self.live_server_url}/games/{game.pk}/")
            page.wait_for_selector("#board polygon")
            language, words = "en", WORDS["en"]
            self.check_spot_keys(page, words)
            # The map in words, one key away, and the focus back where it was after Escape.
            self.key(page, "s")
            spot = self.focused(page)
            self.key(page, "m")
            assert self.focused(page)[0] == "button"
            map_text = page.get_by_role("dialog", name=words["map"]).aria_snapshot()
            assert "Forest" in map_text and "harbour" in map_text, map_text
            self.key(page, "Escape")
            assert not page.get_by_role("dialog", name=words["map"]).count()
            assert self.focused(page) == spot, (self.focused(page), spot)
            # The shortcuts' help lists S and M, and gives the focus back too.
            self.key(page, "?")
            help_text = page.get_by_role("dialog").aria_snapshot()
            assert "Read the map in words" in help_text and "lit spots" in help_text, help_text
            self.key(page, "Escape")
            assert self.focused(page) == spot, (self.focused(page), spot)
            deadline = time.monotonic() + 800
            announced = []
            while not self.over(page):
                assert time.monotonic() < deadline, "the game did not end within 800 s"
                if language == "en" and self.named(("corner", "edge"), "en"):
                    # The first set-up corner and road were chosen in English: on in French, from the second set-up
                    # corner (a spot chosen by its French name in every game, whatever the dice) to the end.
                    language, words = "fr", WORDS["fr"]
                    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": self.live_server_url}])
                    page.reload()
                    page.wait_for_selector("html[lang=fr] #board polygon")
                if self.asked(page, words):
                    self.my_choice(page, words)
                    announced.append(page.locator("#announcer").inner_text())
                else:
                    page.wait_for_timeout(100)
            game.refresh_from_db()
            assert game.status == Game.Status.FINISHED, game.status
            assert language == "fr", "the game ended before the French half"
            # The live region said the rolls, and other seats' turns in a sentence each ("Robot 2: …").
            assert any(re.search(r" (rolled|a fait) \d+ \(", text) for text in announced), announced[-20:]
            assert any(re.match(r"^Robot \d+ ?: ", text) for text in announced), announced[-20:]
            assert self.rolls >= 5, self.rolls
            # Spots were chosen by their names in both languages: a corner and an edge in each (the set-up's).
            for language in ("en", "fr"):
                assert self.named(("corner", "edge"), language), (language, self.spots_named)
            assert not page.errors, page.errors

    def named(self, kinds: tuple[str, ...], language: str) -> bool:
        """A spot of each of these kinds was chosen by its name in that language."""
        return all(any(re.search(WORDS[language][k], n) for n in self.spots_named) for k in kinds)

    def log_in_by_keys(self, page, user) -> None:
        """The log-in form filled and sent with Enter (the site checks passwords with production's hasher)."""
        user.password = PBKDF2PasswordHasher().encode(PASSWORD, "saltsaltsalt")
        user.save(update_fields=["password"])
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.fill("input[name=login]", user.username)
        page.fill("input[name=password]", PASSWORD)
        page.press("input[name=password]", "Enter")
        page.wait_for_url(f"{self.live_server_url}/")
