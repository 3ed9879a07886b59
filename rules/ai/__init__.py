"""Bots for every scenario, at three levels; each decides from `rules.view(state, seat)` and the legal actions
only, never from the state itself.

    bot = LEVELS["medium"](seed=7)
    action = choose_for(state, seat, bot)
    rules.apply(state, seat, action)
"""

from __future__ import annotations

from typing import Any, Protocol

from ..legal import legal_actions
from ..state import State
from ..view import view
from .easy import EasyBot, RandomBot
from .hard import HardBot
from .medium import MediumBot

Action = dict[str, Any]


class ViewBot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


LEVELS: dict[str, type] = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}
BOTS: dict[str, type] = {"random": RandomBot, **LEVELS}


def choose_for(state: State, seat: int, bot: ViewBot) -> Action:
    """The bot's action for `seat`, decided from that seat's view and legal actions alone."""
    return bot.choose(view(state, seat), legal_actions(state, seat))


def play_game(state: State, bots: list[ViewBot], max_actions: int = 20_000) -> int:
    """Let view-based bots play until the game ends; returns the number of actions taken."""
    from ..actions import apply
    from ..legal import to_move

    count = 0
    while count < max_actions:
        seats = to_move(state)
        if not seats:
            break
        seat = seats[0]
        apply(state, seat, choose_for(state, seat, bots[seat]))
        count += 1
    return count


__all__ = ["BOTS", "LEVELS", "EasyBot", "HardBot", "MediumBot", "RandomBot", "choose_for", "play_game"]
