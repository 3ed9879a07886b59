"""The API's JSON parser: DRF's, with a limit on nesting.

No request of the API nests more than a few levels (an action holds a list of resources at most), but Python's
JSON decoder recurses once per level: 100,000 opening brackets raised RecursionError, a 500. Deeper than
MAX_DEPTH is refused as a parse error with its own code.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32


class TooDeep(ParseError):
    default_detail = _("The JSON body is nested too deeply.")
    default_code = "too_deep"


def nesting_exceeds(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` levels in `value` (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return False


class DepthLimitedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise TooDeep() from None
        if isinstance(data, dict | list) and nesting_exceeds(data, MAX_DEPTH):
            raise TooDeep()
        return data
