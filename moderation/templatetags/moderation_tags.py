"""Template filters of the moderation pages and mails."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format

register = template.Library()


@register.filter
def when_zoned(value: datetime | None) -> str:
    """A moment in the current time zone (the reader's, in a mail) with the zone's name: "Nov. 28, 2026, 2:30
    p.m. (Europe/Paris)". A suspension's end means nothing to a reader who cannot tell which clock it is on."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    return f"{date_format(local, 'DATETIME_FORMAT')} ({timezone.get_current_timezone_name()})"
