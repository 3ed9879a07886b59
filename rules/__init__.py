"""The Catan rules engine: pure Python, no Django. See docs/ENGINE.md.

state = new_game(scenario="base", players=4, seed=7)
seat = to_move(state)[0]
action = legal_actions(state, seat)[0]
events = apply(state, seat, action)
public = view(state, None)
"""

from .actions import apply, events_for
from .errors import IllegalAction
from .game import new_game, scenario_keys
from .legal import legal_actions, to_move
from .position import describe, load, position
from .scoring import victory_points
from .state import SCHEMA_VERSION, State, dump
from .view import view, views

__all__ = [
    "SCHEMA_VERSION",
    "IllegalAction",
    "State",
    "apply",
    "describe",
    "dump",
    "events_for",
    "legal_actions",
    "load",
    "new_game",
    "position",
    "to_move",
    "scenario_keys",
    "victory_points",
    "view",
    "views",
]
