"""The cards a seat names itself, outside trading: what it discards after a 7, and what it takes for gold."""

from __future__ import annotations

from typing import Any

from .constants import RESOURCES
from .errors import IllegalAction
from .hands import named
from .legal import DISCARD_ONE
from .state import DISCARD, ROBBER, State
from .state import GOLD as GOLD_PHASE
from .trading import parse_cards

Event = dict[str, Any]
ONE_CARD_DISCARDS = {id(action): r for r, action in enumerate(DISCARD_ONE)}


def discard(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    if state.phase != DISCARD or not state.discards_owed[seat]:
        raise IllegalAction("not_now", "You have nothing to discard.")
    hand = state.hands[seat]
    listed = ONE_CARD_DISCARDS.get(id(action))
    if listed is not None and DISCARD_ONE[listed] is action:  # a listed one-card discard: no parsing needed
        if not hand[listed]:
            raise IllegalAction("cannot_afford", "You do not hold those cards.")
        hand[listed] -= 1
        state.bank[listed] += 1
        owed = state.discards_owed
        owed[seat] -= 1
        if not any(owed):
            state.phase = ROBBER
        return [{"type": "discarded", "seat": seat, "cards": {RESOURCES[listed]: 1}, "remaining": owed[seat]}]
    cards, count = _cards_owed(action, state.discards_owed[seat], "A discard", "bad_discard_count", "Discard")
    if any(have < need for have, need in zip(hand, cards, strict=True)):
        raise IllegalAction("cannot_afford", "You do not hold those cards.")
    for r in range(5):
        hand[r] -= cards[r]
        state.bank[r] += cards[r]
    state.discards_owed[seat] -= count
    if not any(state.discards_owed):
        state.phase = ROBBER
    return [{"type": "discarded", "seat": seat, "cards": named(cards), "remaining": state.discards_owed[seat]}]


def choose_gold(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    if state.phase != GOLD_PHASE or not state.gold_owed[seat]:
        raise IllegalAction("not_now", "You have no gold to choose.")
    cards, count = _cards_owed(action, state.gold_owed[seat], "A gold choice", "bad_gold_count", "Choose")
    if any(want > have for want, have in zip(cards, state.bank, strict=True)):
        raise IllegalAction("bank_empty", "The bank does not hold those cards.")
    for r in range(5):
        state.bank[r] -= cards[r]
        state.hands[seat][r] += cards[r]
    state.gold_owed[seat] -= count
    if not any(state.bank):
        state.gold_owed = [0] * state.players
    if not any(state.gold_owed):
        state.phase = state.resume_phase
    return [{"type": "chose_gold", "seat": seat, "cards": named(cards)}]


def _cards_owed(action: dict[str, Any], owed: int, what: str, code: str, verb: str) -> tuple[list[int], int]:
    """The cards an action names ({'type': ..., 'cards': {resource: count}}), between 1 and `owed` of them."""
    if set(action) != {"type", "cards"}:
        raise IllegalAction("malformed", f"{what} is {{'type': '{action['type']}', 'cards': {{resource: count}}}}.")
    cards = parse_cards(action["cards"], "cards")
    count = sum(cards)
    if not count or count > owed:
        raise IllegalAction(code, f"{verb} between 1 and {owed} cards.")
    return cards, count
