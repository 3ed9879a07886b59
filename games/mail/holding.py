"""Notices held while their reader is at the table (issue 42): no turn, offer or reminder mail to a player who has
the game open (a socket on any web node, counted in the shared cache by games/live/presence.py); once they leave
without acting, the notice goes after NOTICE_GRACE_SECONDS, once, and never for a decision already taken.

Checked when a sender claims a row, just before sending (where staleness is checked too), so the move path pays
nothing for it: a held row keeps its place in the outbox with a later `send_after`, and a task is queued for that
moment (the flusher finds it too, should that task be lost). Being held is not an attempt. A notice that is not a
decision (the end of the game, a timeout played, a chat line, the start) found while its reader is at the table
was seen there: it is dropped. An API client opens no socket: it counts as away, and is mailed as before."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

from ..live import presence
from ..models import Notification


@dataclass(frozen=True)
class Hold:
    """What to do with a row about to be sent: `seen` (drop it: its reader saw it at the table), or wait
    `seconds` more (0: send now)."""

    seen: bool = False
    seconds: float = 0.0


SEND_NOW = Hold()


def hold(notification: Notification, decision_kinds: set[str]) -> Hold:
    """Whether `notification` must wait for its reader to leave the table, and how long; one cache round trip."""
    here, left_at = presence.at_table(notification.game_id, notification.user_id)
    grace = settings.NOTICE_GRACE_SECONDS
    if here:
        if notification.kind not in decision_kinds:
            return Hold(seen=True)
        return Hold(seconds=grace)  # looked at again then: still here, it waits on; gone, its grace counts
    if left_at is None:
        return SEND_NOW
    remaining = float(left_at) + grace - time.time()
    return Hold(seconds=remaining) if remaining > 0 else SEND_NOW


def held_until(now: datetime, held: Hold) -> datetime:
    """The row's new `send_after` (on the outbox's clock)."""
    return now + timedelta(seconds=held.seconds)
