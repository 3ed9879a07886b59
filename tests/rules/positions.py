"""Left for tests outside the rules suite (tests/games): a chance-stream state whose next roll makes a total.

The rule tests build positions with `rules.position` (tests/rules/rule_positions.py) and fix dice with the
testing hook `rules.testing.fix_dice`; nothing here edits a state.
"""

from __future__ import annotations

from rules import chance


def stream_for_roll(total: int) -> int:
    """A chance-stream state whose next two dice sum to `total`."""
    for stream in range(10_000):
        s, a = chance.below(stream, 6)
        _, b = chance.below(s, 6)
        if a + b + 2 == total:
            return stream
    raise ValueError(total)
