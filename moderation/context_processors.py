"""What the site tells a person once, on the next page they open: their warnings and sanctions, the outcome of
their reports and seats offered to them (as well as by email)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest

from .services import notices_unseen


def notices(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and request.method == "GET":
        for text in notices_unseen(user):
            messages.warning(request, text)
    return {}
