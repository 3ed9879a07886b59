"""Plain SQL for the rows a move touches: lock and read the game and its seats, append the move, save the game.

A move is the hot path of live play, and profiling showed the ORM's per-query work (building the SQL,
resolving converters, instantiating through descriptors) costing about four times the query itself: ~1.6 ms
of CPU per move out of ~4.5. These functions send the same statements with the same field conversions
(`Field.get_db_prep_save` on the way in, the compiler's converters on the way out), built once per model, so
they work on PostgreSQL and SQLite alike and return ordinary model instances.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson
from django.db import connection, models
from django.utils import timezone

from .models import Game, Move, Seat

# The move path neither reads nor needs these: the timestamps (psycopg converts each in Python, a sixth of the
# row-reading time) and the fields play by email uses (it loads its seats through the ORM instead).
_NOT_FOR_MOVES = {
    "created_at", "started_at", "finished_at", "deadline", "joined_at", "vacation_until", "vacation_used_seconds"
}


@cache
def _reader(model: type[models.Model], vendor: str) -> tuple[list[str], str, list[list[Any]]]:
    """(attribute names, column list, converters per column) for the fields of `model` a move reads. The others
    are deferred: reading one later costs a query, which the query-count tests would show."""
    fields = [f for f in model._meta.concrete_fields if f.name not in _NOT_FOR_MOVES]
    table = model._meta.db_table
    converters = []
    for field in fields:
        col = field.get_col(table)
        if isinstance(field, models.JSONField) and field.decoder is None:
            converters.append([_json_from_db])  # orjson: the game's state is most of what a move reads
            continue
        converters.append(connection.ops.get_db_converters(col) + col.get_db_converters(connection))
    columns = ", ".join(f"{connection.ops.quote_name(table)}.{connection.ops.quote_name(f.column)}" for f in fields)
    return [f.attname for f in fields], columns, converters


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    return None if value is None else orjson.loads(value)


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _prep(field: models.Field, value: Any) -> Any:
    """`field.get_db_prep_save`, with JSON encoded by orjson (it writes the state and the move's events)."""
    if isinstance(field, models.JSONField) and field.encoder is None and value is not None:
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb

            return Jsonb(value, dumps=_json_dumps)
        return _json_dumps(value)
    return field.get_db_prep_save(value, connection)


def _build(model: type[models.Model], row: tuple, names: list[str], converters: list[list[Any]]) -> Any:
    values = []
    for value, funcs in zip(row, converters, strict=True):
        for func in funcs:
            value = func(value, None, connection)
        values.append(value)
    return model.from_db(connection.alias, names, values)


def lock_game(game_id: int) -> Game | None:
    """The game row, locked until the transaction ends (SELECT ... FOR UPDATE where the database has it)."""
    names, columns, converters = _reader(Game, connection.vendor)
    sql = f"SELECT {columns} FROM {connection.ops.quote_name(Game._meta.db_table)} WHERE id = %s"
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    return None if row is None else _build(Game, row, names, converters)


def seats_of(game: Game) -> dict[int, Seat]:
    """The game's seats by index (users not loaded)."""
    names, columns, converters = _reader(Seat, connection.vendor)
    table = connection.ops.quote_name(Seat._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {table} WHERE game_id = %s", [game.pk])
        rows = cursor.fetchall()
    seats = {}
    for row in rows:
        seat = _build(Seat, row, names, converters)
        seat._state.fields_cache["game"] = game
        seats[seat.index] = seat
    return seats


@cache
def _writer(model: type[models.Model], names: tuple[str, ...], vendor: str) -> tuple[list[models.Field], str]:
    fields = [model._meta.get_field(name) for name in names]
    return fields, ", ".join(connection.ops.quote_name(f.column) for f in fields)


def insert_move(**values: Any) -> None:
    """Append one move row (`values` by field name; `created_at` is set here)."""
    values.setdefault("created_at", timezone.now())
    fields, columns = _writer(Move, tuple(values), connection.vendor)
    params = [_prep(f, value) for f, value in zip(fields, values.values(), strict=True)]
    table = connection.ops.quote_name(Move._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(params))})", params)


def save_game(game: Game, names: list[str]) -> None:
    """UPDATE these fields of the game row from the instance."""
    fields, _ = _writer(Game, tuple(names), connection.vendor)
    sets = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields)
    params = [_prep(f, getattr(game, f.attname)) for f in fields]
    table = connection.ops.quote_name(Game._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {sets} WHERE id = %s", [*params, game.pk])
