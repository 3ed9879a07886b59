"""Trading: with the bank (at the seat's harbour rates), and between players (an offer, its answers and
counter-offers, the active player's confirmation). Offers and counter-offers name their cards freely, so they are
checked here field by field (`parse_cards`), not matched against the listed legal actions."""

from __future__ import annotations

from typing import Any

from .constants import RESOURCE_INDEX
from .errors import IllegalAction
from .hands import named, take
from .legal import harbour_rates
from .state import MAIN, State

Event = dict[str, Any]
MAX_TRADE_CARDS = 40


def trade_bank(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    give, get = RESOURCE_INDEX[action["give"]], RESOURCE_INDEX[action["get"]]
    rate = harbour_rates(state, seat)[give]
    state.hands[seat][give] -= rate
    state.bank[give] += rate
    take(state, seat, get, 1)
    return [{"type": "traded_bank", "seat": seat, "give": action["give"], "count": rate, "get": action["get"]}]


def accept_trade(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    state.trade["replies"][seat] = "accept"
    return [{"type": "trade_reply", "seat": seat, "reply": "accept"}]


def reject_trade(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    state.trade["replies"][seat] = "reject"
    return [{"type": "trade_reply", "seat": seat, "reply": "reject"}]


def cancel_trade(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    state.trade = None
    return [{"type": "trade_cancelled", "seat": seat}]


def reject_counter(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    """The active player turns down a counter-offer: that seat's answer becomes a no. When no answer is left
    pending, accepted or countered, the offer has run its course and closes."""
    trade = state.trade
    partner = action["seat"]
    trade["replies"][partner] = "reject"
    events: list[Event] = [{"type": "trade_reply", "seat": seat, "reply": "reject", "partner": partner}]
    replies = trade["replies"]
    if all(replies.get(s) == "reject" for s in trade["to"]):
        state.trade = None
        events.append({"type": "trade_closed", "seat": seat})
    return events


def confirm_trade(state: State, seat: int, action: dict[str, Any]) -> list[Event]:
    trade = state.trade
    partner = action["seat"]
    reply = trade["replies"][partner]
    terms = reply if isinstance(reply, dict) else trade
    mine, theirs = state.hands[seat], state.hands[partner]
    for r in range(5):
        mine[r] += terms["get"][r] - terms["give"][r]
        theirs[r] += terms["give"][r] - terms["get"][r]
    state.trade = None
    return [
        {
            "type": "traded",
            "seat": seat,
            "partner": partner,
            "give": named(terms["give"]),
            "get": named(terms["get"]),
        }
    ]


def parse_cards(value: Any, field: str) -> list[int]:
    """A {resource: count} mapping from a client, as five counts; raises IllegalAction when malformed."""
    if not isinstance(value, dict):
        raise IllegalAction("malformed", f"'{field}' maps resource names to counts.")
    counts = [0] * 5
    for name, count in value.items():
        if name not in RESOURCE_INDEX:
            raise IllegalAction("malformed", f"Unknown resource {name!r} in '{field}'.")
        if type(count) is not int or count < 0 or count > MAX_TRADE_CARDS:
            raise IllegalAction("malformed", f"Counts in '{field}' are whole numbers from 0 to {MAX_TRADE_CARDS}.")
        counts[RESOURCE_INDEX[name]] = count
    return counts


def check_terms(give: list[int], get: list[int]) -> None:
    if not any(give) or not any(get):
        raise IllegalAction("empty_trade", "Both sides of a trade must give at least one card.")
    if any(g and t for g, t in zip(give, get, strict=True)):
        raise IllegalAction("same_resource_both_sides", "A resource cannot be on both sides of a trade.")


def offer_or_counter(state: State, seat: int, kind: str, action: dict[str, Any]) -> list[Event]:
    """An offer (`offer_trade`, the active player's) or a counter-offer (`counter_trade`, a seat it was made to),
    checked field by field: its terms are free-form, not one of the listed legal actions."""
    extra = set(action) - {"type", "give", "get", "to"}
    if extra:
        raise IllegalAction("malformed", f"Unexpected fields: {', '.join(sorted(extra))}.")
    give, get = parse_cards(action.get("give"), "give"), parse_cards(action.get("get"), "get")
    if kind == "offer_trade":
        if seat != state.current or state.phase != MAIN:
            raise IllegalAction("not_now", "Only the active player offers trades, after rolling.")
        if state.trade is not None:
            raise IllegalAction("trade_open", "An offer is already open.")
        check_terms(give, get)
        if any(have < need for have, need in zip(state.hands[seat], give, strict=True)):
            raise IllegalAction("cannot_afford", "You do not hold the cards you offer.")
        others = [s for s in range(state.players) if s != seat]
        to = action.get("to", others)
        if not isinstance(to, list) or not to or any(type(s) is not int or s not in others for s in to):
            raise IllegalAction("malformed", "'to' lists other seats.")
        to = sorted(set(to))
        state.trade = {"from": seat, "give": give, "get": get, "to": to, "replies": {}}
        state.offers_this_turn.append([list(give), list(get)])
        return [{"type": "trade_offered", "seat": seat, "give": named(give), "get": named(get), "to": to}]
    # A counter-offer: terms stay in the active player's perspective ("give" is what the active player gives).
    trade = state.trade
    if trade is None or seat == state.current or seat not in trade["to"] or seat in trade["replies"]:
        raise IllegalAction("not_now", "There is no offer for you to answer.")
    check_terms(give, get)
    if any(have < need for have, need in zip(state.hands[seat], get, strict=True)):
        raise IllegalAction("cannot_afford", "You do not hold the cards you would give.")
    trade["replies"][seat] = {"give": give, "get": get}
    return [{"type": "trade_reply", "seat": seat, "reply": "counter", "give": named(give), "get": named(get)}]
