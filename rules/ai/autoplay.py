"""What the server plays for a seat, decided by pure functions of that seat's view and legal actions.

Three causes move for a seat without its person: a bot, a standing order, a timeout. Each decision here sees
only what the seat itself may see (`rules.view`), so the server never plays with knowledge the seat lacks. The
randomness of bots comes from the game's own bot secret (`bot_seed`), never from the secret dice seed: a seat
that watched its bots' choices learns nothing about future rolls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

import rules

from ..constants import RESOURCE_INDEX, RESOURCES
from . import RandomBot, choose_for, move_for

Action = dict[str, Any]

# The timeout policy "skip" finishes the turn as quickly as possible: the first of these that is legal.
SKIP_ORDER = ({"type": "roll"}, {"type": "reject_trade"}, {"type": "cancel_trade"}, {"type": "end_turn"})
TIMEOUT_BOT_LEVEL = "medium"


def bot_seed(secret: str, seq: int, seat: int) -> int:
    """A bot's random seed for one decision: derived from the game's bot secret (128 bits) and the position."""
    digest = hashlib.sha256(f"{secret}:{seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def bot_action(
    state: rules.State,
    seat: int,
    level: str,
    *,
    seed: int,
    time_limit: float | None,
    history: Callable[[], Iterable[list[dict[str, Any]]]] | None = None,
) -> Action:
    """The move of a bot of `level` for `seat`, from its view (rules.ai decides from the view alone) and what
    the game's events showed that seat of others' cards: `history()` gives every move's stored events in order
    (the bot skips those its seat may not see). It is read only when the bot may open an offer of its own, the
    one decision its card tracker serves (whom to ask, for what)."""
    events = history() if history is not None and may_offer(state, seat) else None
    return move_for(state, seat, level, seed=seed, time_limit=time_limit, history=events)


def may_offer(state: rules.State, seat: int) -> bool:
    """Whether `seat` may open a domestic offer now: its own main phase, no offer open."""
    return state.phase == "main" and state.current == seat and state.trade is None


def fallback_action(state: rules.State, seat: int, *, seed: int) -> Action:
    """A uniformly random legal move from the seat's view: what a bot plays when its own choice failed."""
    return choose_for(state, seat, RandomBot(seed=seed))


def timeout_action(state: rules.State, seat: int, policy: str, *, seed: int) -> Action:
    """What the timeout policy plays for an absent person: "skip" the quickest way on, else a medium bot."""
    legal = rules.legal_actions(state, seat)
    if policy == "skip":
        for wanted in SKIP_ORDER:
            if wanted in legal:
                return wanted
    action = move_for(state, seat, TIMEOUT_BOT_LEVEL, seed=seed)
    if action["type"] == "offer_trade":
        # An absent player's stand-in does not open a trade that would keep everyone waiting for answers.
        for wanted in ({"type": "end_turn"}, {"type": "roll"}):
            if wanted in legal:
                return wanted
    return action


def offered_verbs(state: rules.State, seat: int) -> list[str]:
    """The decisions an email may offer this seat now, by verb (services/email_actions.py plays them)."""
    legal = rules.legal_actions(state, seat)
    kinds = {action["type"] for action in legal}
    verbs = []
    if {"type": "accept_trade"} in legal:
        verbs.append("accept")
    if {"type": "reject_trade"} in legal:
        verbs.append("reject")
    if {"type": "roll"} in legal:
        verbs.append("roll")
    if {"type": "end_turn"} in legal:
        verbs.append("end")
    if "discard" in kinds:
        verbs.append("discard")
    return verbs


def _counts(cards: dict[str, int] | list[int]) -> list[int]:
    if isinstance(cards, list):
        return list(cards)
    return [cards.get(resource, 0) for resource in RESOURCES]


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


def standing_order_action(view: dict[str, Any], legal: list[Action], orders: dict[str, Any]) -> Action | None:
    """The action a seat's standing orders take now, if any applies and is legal (see standing_orders.py)."""
    if not orders or not legal:
        return None
    seat = view["viewer"]
    facts = view["seats"][seat]
    action: Action | None = None
    if view["phase"] == "discard" and facts["discards_owed"] and orders.get("discard_priority"):
        cards = _bundle(orders["discard_priority"], _counts(facts["resources"]), facts["discards_owed"])
        action = {"type": "discard", "cards": cards} if cards else None
    elif view["phase"] == "gold" and facts["gold_owed"] and orders.get("gold_default"):
        cards = _bundle(orders["gold_default"], _counts(view["bank"]), facts["gold_owed"])
        action = {"type": "choose_gold", "cards": cards} if cards else None
    elif view["trade"] is not None and seat in view["trade"]["to"] and str(seat) not in view["trade"]["replies"]:
        trade = view["trade"]
        accept = orders.get("auto_accept")
        if (
            accept
            and {"type": "accept_trade"} in legal
            and _counts(trade["give"]) == _counts(accept["give"])
            and _counts(trade["get"]) == _counts(accept["get"])
        ):
            action = {"type": "accept_trade"}
        elif orders.get("auto_decline_trades"):
            action = {"type": "reject_trade"}
    if action is None:
        return None
    # Discards and gold choose among many card combinations, which `legal` lists only as their kind.
    if action in legal:
        return action
    kinds = {candidate["type"] for candidate in legal}
    return action if action["type"] in ("discard", "choose_gold") and action["type"] in kinds else None
