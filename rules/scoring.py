"""Victory points, public and hidden, and the moment a game is won (RULES.md §8)."""

from __future__ import annotations

from .constants import KNIGHT, LARGEST_ARMY_MINIMUM, VICTORY_POINT
from .seafarers import trade_line_points
from .state import GAME_OVER, SETUP_ROAD, SETUP_SETTLEMENT, State


def public_victory_points(state: State, seat: int) -> int:
    """Points everyone can see: buildings, Longest Road, Largest Army."""
    city = state.vertex_city
    points = 0
    for v in state.seat_buildings[seat]:
        points += 2 if city[v] else 1
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
    phase = state.phase
    if phase == GAME_OVER or phase == SETUP_SETTLEMENT or phase == SETUP_ROAD:
        return False
    seat = state.current
    # victory_points(state, seat), inlined: it runs after nearly every turn.
    city = state.vertex_city
    points = state.development[seat][VICTORY_POINT] + state.development_new[seat][VICTORY_POINT]
    for v in state.seat_buildings[seat]:
        points += 2 if city[v] else 1  # a city counts twice
    if state.longest_road == seat:
        points += 2
    if state.largest_army == seat:
        points += 2
    if state.seafarers:
        points += state.vp_tokens[seat] + trade_line_points(state, seat)
    if points >= state.vp_target:
        state.winner = seat
        state.phase = GAME_OVER
        state.trade = None
        return True
    return False


def settle_largest_army(state: State) -> None:
    """Check the Largest Army holder against the knights played: a holder keeps the card on a tie; without a
    valid holder, the one player with most knights (at least three) takes it."""
    knights = [used[KNIGHT] for used in state.development_used]
    most = max(knights)
    holder = state.largest_army
    if most < LARGEST_ARMY_MINIMUM:
        state.largest_army = -1
    elif not (0 <= holder < state.players and knights[holder] == most):
        leaders = [s for s, n in enumerate(knights) if n == most]
        state.largest_army = leaders[0] if len(leaders) == 1 else -1
