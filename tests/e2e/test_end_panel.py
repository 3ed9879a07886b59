"""The end panel at laptop and phone sizes: the final scores' headers stand over their values, and Rematch is on
screen without scrolling as soon as the panel is."""

from __future__ import annotations

import pytest

from tests.e2e.base import ARTIFACTS, BrowserCase

pytestmark = pytest.mark.e2e

VIEWPORTS = [(1280, 720), (390, 844)]

# Each column's header cell and its value cells: (left, right) of their text, through a Range (a cell's box is the
# column's; the text inside is where the eye reads it).
COLUMNS = """() => {
  const text = (cell) => { const r = document.createRange(); r.selectNodeContents(cell);
                           const b = r.getBoundingClientRect(); return [b.left, b.right]; };
  const heads = [...document.querySelectorAll('#final-scores thead th')];
  const rows = [...document.querySelectorAll('#final-scores tbody tr')];
  return heads.map((th, i) => ({ name: th.textContent, head: text(th),
                                 values: rows.map((tr) => text(tr.children[i])) }));
}"""


class EndPanelTest(BrowserCase):
    def test_the_end_panel_aligns_its_scores_and_shows_rematch_without_scrolling(self):
        page = self.new_page(*VIEWPORTS[0])
        with self.reporting(page):
            self.start_game_against_bots(page, "ender")
            self.my_turn(page)
            self.finish_stored_game()
            page.reload()
            page.wait_for_selector("#game-over:not([hidden]) #final-scores tbody tr")
            for width, height in VIEWPORTS:
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(50)
                self.check_columns(page, width)
                box = page.locator("#btn-rematch").bounding_box()
                assert box is not None, "no Rematch button"
                assert 0 <= box["y"] and box["y"] + box["height"] <= height, f"Rematch at {box} in {width}x{height}"
                assert 0 <= box["x"] and box["x"] + box["width"] <= width, f"Rematch at {box} in {width}x{height}"
                page.screenshot(path=str(ARTIFACTS / f"end-panel-{width}x{height}.png"))
            assert page.locator("#game-over-actions a.button").count() == 1  # back to my games, beside it
            assert not page.errors, page.errors
            page.click("#btn-rematch")
            page.wait_for_selector("#start-game")

    @staticmethod
    def check_columns(page, width: int) -> None:
        """Numbers sit on the right of their columns, and so do their headers; text columns on the left."""
        columns = page.evaluate(COLUMNS)
        assert len(columns) == 4 and all(c["values"] for c in columns), columns
        for index, column in enumerate(columns):
            side = 1 if index in (1, 2) else 0  # the VP and VP-card columns are numbers: right-aligned
            head = column["head"][side]
            for value in column["values"]:
                if index == 3 and value[1] - value[0] < 1:
                    continue
                assert abs(value[side] - head) <= 3, (
                    f"{column['name']!r} header at {head}, a value at {value} ({width})"
                )
