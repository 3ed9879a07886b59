"""What a bot does with cards in hand: which to discard after a 7, which to take for gold, and whether a
trade brings its hand closer to its goal."""

from __future__ import annotations

from .heuristics import RESOURCE_WEIGHT, Cost, goal, named, production, shortage
from .obs import Obs


def discard_bundle(o: Obs, n: int) -> dict[str, int]:
    """Discard `n` cards, keeping what the goal needs: shed the largest surplus first."""
    _, cost = goal(o)
    keep = list(o.hand)
    out = [0] * 5
    weight = RESOURCE_WEIGHT
    for _ in range(n):
        candidates = [r for r in range(5) if keep[r] > 0]
        r = max(candidates, key=lambda r: (keep[r] - cost[r], -weight[r], keep[r]))
        keep[r] -= 1
        out[r] += 1
    return named(out)


def gold_bundle(o: Obs, n: int) -> dict[str, int]:
    """Choose `n` gold-field cards: what the goal lacks first, then what I produce least."""
    _, cost = goal(o)
    prod = production(o, o.me)
    hand = list(o.hand)
    bank = list(o.bank)
    out = [0] * 5
    for _ in range(n):
        options = [r for r in range(5) if bank[r] > 0]
        if not options:
            break
        r = max(options, key=lambda r: (cost[r] > hand[r], -prod[r], RESOURCE_WEIGHT[r]))
        hand[r] += 1
        bank[r] -= 1
        out[r] += 1
    return named(out)


CARD_WORTH = 0.4  # a card in hand, as a fraction of one the goal still misses
CARD_CAP = 4  # cards of one kind beyond this add nothing (hoarding is no position)
ROBBER_RISK = 0.3  # each card above 7 in hand, which a 7 would halve
TRADE_MARGIN = 0.05  # below this a trade only shuffles cards


def hand_position(hand: list[int], cost: Cost) -> float:
    """How good a hand is for a goal: the cards the goal still misses count most, every held card (of the
    useful kinds, up to a few of each) a little, and cards a 7 would take count against."""
    held = sum(RESOURCE_WEIGHT[r] * min(hand[r], CARD_CAP) for r in range(5))
    return -shortage(hand, cost) + CARD_WORTH * held - ROBBER_RISK * max(0, sum(hand) - 7)


def trade_helps(o: Obs, give: list[int], get: list[int]) -> bool:
    """Receiving `get` for `give` raises my position toward my goal (a 2-for-1 of a card the goal needs can: the
    two cards may be worth more than the one given)."""
    _, cost = goal(o)
    hand = o.hand
    if any(give[r] > hand[r] for r in range(5)):
        return False
    after = [hand[r] - give[r] + get[r] for r in range(5)]
    return hand_position(after, cost) > hand_position(hand, cost) + TRADE_MARGIN
