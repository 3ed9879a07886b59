"""The one source of "now" for clocks and mail timing, so tests can drive time instead of sleeping."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
