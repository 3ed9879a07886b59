"""Model fields of our own."""

from __future__ import annotations

from typing import Any

import orjson
from django.db import models


def json_dumps(value: Any) -> str:
    """JSON text by orjson (keys that are not strings, such as ints, become strings)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class JSONTextField(models.JSONField):
    """A JSONField kept as PostgreSQL `json` (the text as written) rather than `jsonb`.

    For a value written and read whole on every move and never queried inside (the game's state), `jsonb`
    costs PostgreSQL a parse into its binary form on each write and a print back to text on each read: a third
    of its CPU per move (docs/PERFORMANCE.md). Elsewhere it is an ordinary JSONField. Values load as text on
    PostgreSQL (see `games.apps`) and are decoded by the field, as Django does for `jsonb`.

    `json` has no equality operator: a query selecting the column cannot use DISTINCT (filter through a
    `pk__in` subquery instead, as the selectors do).
    """

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        adapted = super().get_db_prep_value(value, connection, prepared)
        if connection.vendor == "postgresql" and self.encoder is None:
            from psycopg.types.json import Json, Jsonb  # psycopg is loaded only on PostgreSQL

            if isinstance(adapted, Jsonb):
                return Json(adapted.obj, dumps=json_dumps)
        return adapted
