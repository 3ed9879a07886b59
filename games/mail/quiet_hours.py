"""When a notice may go: after its reader's quiet hours, except reminders and timeout notices (at once)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from .kinds import IMMEDIATE_KINDS


def quiet_until(user, moment: datetime) -> datetime:
    """The end of the user's quiet hours if `moment` falls inside them, else `moment`."""
    start, end = user.quiet_start, user.quiet_end
    if start is None or end is None or start == end:
        return moment
    local = moment.astimezone(zoneinfo.ZoneInfo(user.time_zone or "UTC"))
    t = local.time()
    inside = start <= t < end if start < end else (t >= start or t < end)
    if not inside:
        return moment
    release = local.replace(hour=end.hour, minute=end.minute, second=0, microsecond=0)
    if release <= local:
        release += timedelta(days=1)
    return release.astimezone(zoneinfo.ZoneInfo("UTC"))


def send_after(user, kind: str | None, moment: datetime) -> datetime:
    """When a row may go: reminders and timeout notices at once (held by quiet hours, a reminder would come after
    the deadline it warns of), the rest after the reader's quiet hours."""
    if kind in IMMEDIATE_KINDS:
        return moment
    return quiet_until(user, moment)
