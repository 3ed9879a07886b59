"""Victory points, public and hidden, and the moment a game is won (RULES.md §8)."""

from __future__ import annotations

from .constants import VICTORY_POINT
from .seafarers import trade_line_points
from .state import GAME_OVER, SETUP_ROAD, SETUP_SETTLEMENT, State


def public_victory_points(state: State, seat: int) -> int:
    """Points everyone can see: buildings, Longest Road, Largest Army."""
    city = state.vertex_city
    points = sum(2 if city[v] else 1 for v in state.seat_buildings[seat])
    if state.longest_road == seat:
        points += 2
    if state.largest_army == seat:
        points += 2
    if state.seafarers:
        points += state.vp_tokens[seat] + trade_line_points(state, seat)
    return points


def hidden_victory_points(state: State, seat: int) -> int:
    return state.development[seat][VICTORY_POINT] + state.development_new[seat][VICTORY_POINT]


def victory_points(state: State, seat: int) -> int:
    return public_victory_points(state, seat) + hidden_victory_points(state, seat)


def check_winner(state: State) -> bool:
    """A player wins only during their own turn, with hidden cards counted; True when the game just ended."""
    if state.phase in (GAME_OVER, SETUP_SETTLEMENT, SETUP_ROAD):
        return False
    if victory_points(state, state.current) >= state.vp_target:
        state.winner = state.current
        state.phase = GAME_OVER
        state.trade = None
        return True
    return False
