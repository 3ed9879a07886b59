"""Hooks for tests and bug reports only: never called by the site, the bots or a replay.

fix_dice(state, 3, 4) makes the next `roll` of this state show 3 and 4. The forced roll draws nothing from the
chance stream, so everything after it differs from the seeded game: use it on constructed positions.
"""

from __future__ import annotations

from .errors import IllegalAction
from .state import State


def fix_dice(state: State, first: int, second: int) -> None:
    """The next roll of `state` shows these two dice (each a whole number from 1 to 6)."""
    for die in (first, second):
        if type(die) is not int or not 1 <= die <= 6:
            raise IllegalAction("bad_dice", "A die shows a whole number from 1 to 6.")
    state.forced_dice = (first, second)
