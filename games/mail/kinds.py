"""What a notice is about: its kind for a seat's decision, which kinds announce a decision (stale once it is made),
which go at once, and the words of the one-click actions an email or push offers."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

import rules

from ..models import Notification

# Kinds that announce a decision: stale once the seat no longer owes one.
DECISION_KINDS = {
    Notification.Kind.TURN,
    Notification.Kind.DISCARD,
    Notification.Kind.TRADE,
    Notification.Kind.GOLD,
    Notification.Kind.DECISION,
    Notification.Kind.REMINDER,
}

# Sent at once, even to digest readers and in quiet hours: later would be after the clock ran out.
IMMEDIATE_KINDS = {Notification.Kind.REMINDER, Notification.Kind.TIMEOUT}

VERB_LABELS = {
    "accept": _("Accept the trade"),
    "reject": _("Reject the trade"),
    "roll": _("Roll the dice"),
    "end": _("End your turn"),
    "discard": _("Discard"),
}

PHASE_KINDS = {
    "discard": Notification.Kind.DISCARD,
    "gold": Notification.Kind.GOLD,
}


def decision_kind(state: rules.State, seat: int) -> str:
    if state.phase == "game_over":
        return Notification.Kind.GAME_OVER
    if state.trade is not None and seat != state.current:
        return Notification.Kind.TRADE
    if state.phase in PHASE_KINDS:
        return PHASE_KINDS[state.phase]
    if seat == state.current:
        return Notification.Kind.TURN
    return Notification.Kind.DECISION
