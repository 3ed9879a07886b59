"""Cards moving between a hand and the bank, and a hand's counts by name (events name resources)."""

from __future__ import annotations

from .constants import RESOURCES
from .state import State


def pay(state: State, seat: int, cost: tuple[int, ...]) -> None:
    """`seat` pays `cost` (five counts) to the bank."""
    hand, bank = state.hands[seat], state.bank
    for r in range(5):
        if cost[r]:
            hand[r] -= cost[r]
            bank[r] += cost[r]


def take(state: State, seat: int, resource: int, count: int) -> int:
    """Give `seat` up to `count` of a resource from the bank; returns how many it got."""
    count = min(count, state.bank[resource])
    state.bank[resource] -= count
    state.hands[seat][resource] += count
    return count


def named(counts: list[int]) -> dict[str, int]:
    """Five counts as {resource: count}, the resources held only."""
    return {RESOURCES[r]: n for r, n in enumerate(counts) if n}
