"""Standing orders: small decisions a player sets in advance so asynchronous games never stall on them.

{"discard_priority": ["wool", "ore", ...],      # discard these first after a 7
 "auto_decline_trades": true,                     # reject every offer
 "auto_accept": {"give": {...}, "get": {...}},    # accept exactly this trade (active player's terms)
 "gold_default": ["ore", "grain"]}                # gold-field choices, in this order
"""

from __future__ import annotations

from typing import Any

import rules
from rules.constants import RESOURCE_INDEX, RESOURCES

KEYS = {"discard_priority", "auto_decline_trades", "auto_accept", "gold_default"}


def validate(orders: Any) -> dict[str, Any]:
    """Clean standing orders from a client; raises ValueError with a readable message."""
    if not isinstance(orders, dict):
        raise ValueError("Standing orders are an object.")
    unknown = set(orders) - KEYS
    if unknown:
        raise ValueError(f"Unknown standing orders: {', '.join(sorted(unknown))}.")
    clean: dict[str, Any] = {}
    for key in ("discard_priority", "gold_default"):
        if key in orders and orders[key]:
            value = orders[key]
            if not isinstance(value, list) or any(r not in RESOURCE_INDEX for r in value) or len(value) > 10:
                raise ValueError(f"'{key}' lists resource names.")
            clean[key] = value
    if orders.get("auto_decline_trades"):
        clean["auto_decline_trades"] = True
    if orders.get("auto_accept"):
        terms = orders["auto_accept"]
        if not isinstance(terms, dict) or set(terms) != {"give", "get"}:
            raise ValueError("'auto_accept' has 'give' and 'get'.")
        try:
            give = rules.actions.parse_cards(terms["give"], "give")
            get = rules.actions.parse_cards(terms["get"], "get")
        except rules.IllegalAction as error:
            raise ValueError(error.message) from None
        if not any(give) or not any(get):
            raise ValueError("'auto_accept' needs cards on both sides.")
        clean["auto_accept"] = {"give": terms["give"], "get": terms["get"]}
    return clean


def _bundle(preference: list[str], available: list[int], count: int) -> dict[str, int]:
    """Up to `count` cards, taking each preferred resource as far as available, then any others."""
    order = [RESOURCE_INDEX[r] for r in preference] + list(range(5))
    left = list(available)
    chosen = [0] * 5
    for r in order:
        take = min(left[r], count - sum(chosen))
        chosen[r] += take
        left[r] -= take
    return {RESOURCES[r]: n for r, n in enumerate(chosen) if n}


def order_action(state: rules.State, seat: int, orders: dict[str, Any]) -> dict[str, Any] | None:
    """The action a seat's standing orders take now, if any applies."""
    if not orders:
        return None
    if state.phase == "discard" and state.discards_owed[seat] and orders.get("discard_priority"):
        cards = _bundle(orders["discard_priority"], state.hands[seat], state.discards_owed[seat])
        return {"type": "discard", "cards": cards} if cards else None
    if state.phase == "gold" and state.gold_owed[seat] and orders.get("gold_default"):
        cards = _bundle(orders["gold_default"], state.bank, state.gold_owed[seat])
        return {"type": "choose_gold", "cards": cards} if cards else None
    trade = state.trade
    if trade is not None and seat in trade["to"] and seat not in trade["replies"]:
        accept = orders.get("auto_accept")
        legal = rules.legal_actions(state, seat)
        if accept and {"type": "accept_trade"} in legal:
            wanted_give = rules.actions.parse_cards(accept["give"], "give")
            wanted_get = rules.actions.parse_cards(accept["get"], "get")
            if trade["give"] == wanted_give and trade["get"] == wanted_get:
                return {"type": "accept_trade"}
        if orders.get("auto_decline_trades"):
            return {"type": "reject_trade"}
    return None
