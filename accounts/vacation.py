"""Vacation from every game by email at once, started and ended on the profile page.

The account keeps only when its person is back (`User.vacation_until`). The games read it for their clocks,
for games joined later too, and re-time the decisions already due when it changes: they listen to
`vacation_changed`, sent inside the transaction that changed it (accounts never imports games)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.dispatch import Signal
from django.utils import formats, timezone
from django.utils.translation import gettext as _

# Sent with `user` once their account vacation started, grew or ended (inside the transaction that saved it).
vacation_changed = Signal()


class VacationError(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def now() -> datetime:
    """The vacation's "now" (tests drive it together with the games' clock)."""
    return timezone.now()


def _shown(user: Any, when: datetime) -> str:
    return formats.date_format(when.astimezone(zoneinfo.ZoneInfo(user.time_zone)), "DATETIME_FORMAT")


def vacation_start(user: Any, days: int, limit_days: int) -> datetime:
    """Away for `days` more: from now, or from the end of the vacation already running (never shortened), ending
    at most `limit_days` from now. Returns when the user is back."""
    current = now()
    away = user.vacation_until if user.vacation_until and user.vacation_until > current else None
    until = (away or current) + timedelta(days=days)
    if until > current + timedelta(days=limit_days):
        message = _("A vacation can end at most %(limit)s days from now.") % {"limit": limit_days}
        if away:
            message += " " + _("You are already away until %(until)s.") % {"until": _shown(user, away)}
        raise VacationError(message)
    with transaction.atomic():
        get_user_model().objects.filter(pk=user.pk).update(vacation_until=until)
        user.vacation_until = until
        vacation_changed.send(sender=get_user_model(), user=user)
    return until


def vacation_end(user: Any) -> None:
    """Back early: every game's clock runs again from now."""
    if not user.vacation_until or user.vacation_until <= now():
        raise VacationError(_("You are not on vacation."))
    with transaction.atomic():
        get_user_model().objects.filter(pk=user.pk).update(vacation_until=None)
        user.vacation_until = None
        vacation_changed.send(sender=get_user_model(), user=user)
