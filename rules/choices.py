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
    if set(action) != {"type", "cards"}:
        raise IllegalAction("malformed", "A discard is {'type': 'discard', 'cards': {resource: count}}.")
    cards = parse_cards(action["cards"], "cards")
    count = sum(cards)
    if not count or count > state.discards_owed[seat]:
        raise IllegalAction("bad_discard_count", f"Discard between 1 and {state.discards_owed[seat]} cards.")
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
    if set(action) != {"type", "cards"}:
        raise IllegalAction("malformed", "A gold choice is {'type': 'choose_gold', 'cards': {resource: count}}.")
    cards = parse_cards(action["cards"], "cards")
    count = sum(cards)
    if not count or count > state.gold_owed[seat]:
        raise IllegalAction("bad_gold_count", f"Choose between 1 and {state.gold_owed[seat]} cards.")
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
