"""Bots for every scenario, at three levels; each decides from `rules.view(state, seat)` and the legal actions
only, never from the state itself.

    action = move_for(state, seat, "hard", seed=game_id)  # a fresh bot per move, as a web worker would
    rules.apply(state, seat, action)

    bot = LEVELS["medium"](seed=7)  # or one bot for a whole game
    action = choose_for(state, seat, bot)

Bots keep no memory between decisions but a card tracker (`tracker.py`) fed by the game's events, which says
whom an offer may be put to (the hard bot's two counters are statistics only): a bot built afresh for every
move and handed the events so far (`history`) plays exactly like one kept for the game. The hard bot thinks
for `time_limit` seconds per decision (default 1 s, set-up decisions longer) and never more than 2 s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..legal import legal_actions
from ..state import State
from ..view import view
from .easy import EasyBot, RandomBot
from .hard import HardBot
from .medium import MediumBot
from .play import ViewBot, play_game
from .tracker import CardTracker, Event

Action = dict[str, Any]


LEVELS: dict[str, type] = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}
BOTS: dict[str, type] = {"random": RandomBot, **LEVELS}


def choose_for(state: State, seat: int, bot: ViewBot) -> Action:
    """The bot's action for `seat`, decided from that seat's view and legal actions alone."""
    return bot.choose(view(state, seat), legal_actions(state, seat))


def move_for(
    state: State,
    seat: int,
    level: str,
    seed: int = 0,
    time_limit: float | None = None,
    history: Iterable[list[Event]] | None = None,
) -> Action:
    """One move for `seat` by a fresh bot of `level` ("easy", "medium" or "hard"). Its random choices are seeded
    by `seed` and the state's version, so each move draws anew (easy and medium give the same move again on a
    replay; the hard bot's search depends on the clock). `history`, every move's events so far in order (as
    stored; those the seat may not see are skipped), feeds the bot's card tracker."""
    mixed = (seed * 1_000_003 + state.version) & 0xFFFFFFFF
    if level == "hard" and time_limit is not None:
        bot = HardBot(seed=mixed, time_limit=time_limit)
    else:
        bot = LEVELS[level](seed=mixed)
    if history is not None and hasattr(bot, "tracker"):
        bot.tracker = CardTracker.from_history(seat, state.players, history)
    return choose_for(state, seat, bot)


__all__ = [
    "BOTS",
    "LEVELS",
    "CardTracker",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "ViewBot",
    "choose_for",
    "move_for",
    "play_game",
]
