"""Numbers from forms and query strings, read without trusting them."""

from __future__ import annotations

MAXIMUM = 10**6  # far above any count, id offset or number of days a page asks for; far below an overflow


def whole_number(value: str | None, default: int | None = None, maximum: int = MAXIMUM) -> int | None:
    """A whole number from 0 to `maximum`, or `default` for anything else ('', 'abc', '-1', '99999999999')."""
    text = (value or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(maximum)) or int(text) > maximum:
        return default
    return int(text)
