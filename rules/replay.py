"""Positions of a game replayed from its move log, and the view of a finished game's position with every seat's
cards face up (the seed is public once the game is over, so nothing is hidden any more)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import apply
from .state import State
from .view import player_view, view


def replay(state: State, moves: Iterable[tuple[int, dict[str, Any]]]) -> State:
    """Apply every (seat, action) of `moves` to `state`, in order; returns it."""
    for seat, action in moves:
        apply(state, seat, action)
    return state


def revealed_view(state: State) -> dict[str, Any]:
    """The spectator's view with every seat's facts as that seat itself sees them: hands and development cards
    shown. Only for a game whose seed is revealed; made of `view` and its per-seat part, never a copy of them."""
    shown = view(state, None)
    shown["seats"] = [player_view(state, seat, seat) for seat in range(state.players)]
    shown["revealed"] = True
    return shown
