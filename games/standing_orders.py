"""Standing orders: small decisions a player sets in advance so asynchronous games never stall on them.

What an order plays is decided in autoplay.standing_order_action; this module checks what a client sends.

{"discard_priority": ["wool", "ore", ...],      # discard these first after a 7
 "auto_decline_trades": true,                     # reject every offer
 "auto_accept": {"give": {...}, "get": {...}},    # accept exactly this trade (active player's terms)
 "gold_default": ["ore", "grain"]}                # gold-field choices, in this order
"""

from __future__ import annotations

from typing import Any

import rules
from rules.constants import RESOURCE_INDEX
from rules.trading import parse_cards

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
            give = parse_cards(terms["give"], "give")
            get = parse_cards(terms["get"], "get")
        except rules.IllegalAction as error:
            raise ValueError(error.message) from None
        if not any(give) or not any(get):
            raise ValueError("'auto_accept' needs cards on both sides.")
        clean["auto_accept"] = {"give": terms["give"], "get": terms["get"]}
    return clean
