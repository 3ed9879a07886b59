"""Bots playing a whole game on the engine: the one loop, for the tools, the benchmarks and the tests.

Every bot is a `ViewBot`: it sees its seat's view and legal actions only, as the site's bots do. Bots that
follow the game (a card tracker) see every move's events; `CardTracker.observe` skips what they may not see.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..actions import apply
from ..legal import legal_actions, to_move
from ..state import State
from ..view import view
from .tracker import CardTracker

Action = dict[str, Any]


class ViewBot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


def play_game(state: State, bots: list[ViewBot], max_actions: int = 20_000) -> int:
    """Let view-based bots play until the game ends; returns the number of actions taken (stops at
    `max_actions`). Bots that track cards follow the game from here (start them at the beginning of the game):
    a new game, a new tracker (a hand it missed is forgotten, never guessed)."""
    observers = []
    for seat, bot in enumerate(bots):
        if hasattr(bot, "tracker"):
            tracker = bot.tracker = CardTracker(seat, state.players)
            observers.append(tracker.observe)
    count = 0
    while count < max_actions:
        seats = to_move(state)
        if not seats:
            break
        seat = seats[0]
        action = bots[seat].choose(view(state, seat), legal_actions(state, seat))
        events = apply(state, seat, action)
        for observe in observers:
            observe(events)
        count += 1
    return count
