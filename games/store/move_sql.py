"""Plain SQL for the rows a move touches: lock and read the game and its seats, append the move, save the game.

On PostgreSQL a move is four statements in three round trips: BEGIN with the game row locked with its seats, the
new move rows and the game's update in one statement, COMMIT. The lock and the write are prepared once per
connection, so PostgreSQL parses and plans neither on every move.

A move is the hot path of live play, and profiling showed the ORM's per-query work (building the SQL,
resolving converters, instantiating through descriptors) costing about four times the query itself: ~1.6 ms
of CPU per move out of ~4.5. These functions send the same statements with the same field conversions
(`Field.get_db_prep_save` on the way in, the compiler's converters on the way out), built once per model, so
they work on PostgreSQL and SQLite alike; the game comes back as an ordinary model instance, its seats as
`SeatRow`s (what a move needs of them).
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

import orjson
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils import timezone

from ..fields import JSONTextField, json_dumps
from ..models import Game, Move, Seat

# The move path neither reads nor needs the game's timestamps (psycopg converts each in Python, a sixth of the
# row-reading time); it only sets `deadline` and `finished_at`.
_NOT_FOR_MOVES = {"created_at", "started_at", "finished_at", "deadline", "bot_turn_since", "bot_secret"}


PREPARE_NOTHING_ELSE = 2**31 - 1  # psycopg's count of a statement's executions before it prepares one itself


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


def _prep(field: models.Field, value: Any) -> Any:
    """`field.get_db_prep_save`, with JSON encoded by orjson (it writes the state and the move's events)."""
    if isinstance(field, models.JSONField) and field.encoder is None and value is not None:
        if connection.vendor == "postgresql":
            from psycopg.types.json import Json, Jsonb  # psycopg is loaded only on PostgreSQL

            return (Json if isinstance(field, JSONTextField) else Jsonb)(value, dumps=json_dumps)
        return json_dumps(value)
    return field.get_db_prep_save(value, connection)


# On PostgreSQL, what Django's `get_db_prep_save` makes of a value of the type the field holds: an int wrapped in
# psycopg's type of the column's size (as Django's backend does, so that a prepared statement keeps its parameter
# types), text and an aware datetime as they are. Such a value skips the dozen calls through the field and the
# connection's operations per column, a twentieth of a move's work in its thread.
_AUTO = ("AutoField", "BigAutoField", "SmallAutoField")
_INTEGER = ("IntegerField", "BigIntegerField", "SmallIntegerField")
_POSITIVE = ("PositiveIntegerField", "PositiveBigIntegerField", "PositiveSmallIntegerField")
_PASSED_AS_IS = {
    **dict.fromkeys((*_AUTO, *_INTEGER, *_POSITIVE), int),
    **dict.fromkeys(("CharField", "TextField"), str),
    "DateTimeField": datetime,
}


def _preparer(field: models.Field, vendor: str) -> Callable[[Any], Any]:
    """`_prep` for one field, with its checks made once (see `_PASSED_AS_IS`; None is NULL for each of them); any
    other value goes through Django's own preparation."""
    internal = (field.target_field if field.is_relation else field).get_internal_type()
    kind = _PASSED_AS_IS.get(internal) if vendor == "postgresql" else None
    if kind is None:
        return lambda value: _prep(field, value)
    if kind is datetime:
        return lambda value: (
            value if value is None or (type(value) is datetime and value.tzinfo is not None) else _prep(field, value)
        )
    if kind is int:
        # Auto fields go as plain ints; the others as Django's PostgreSQL backend wraps them.
        wrap = getattr(connection.ops, "integerfield_type_map", {}).get(internal)
        if wrap is not None:
            return lambda value: wrap(value) if type(value) is int else None if value is None else _prep(field, value)
    return lambda value: value if value is None or type(value) is kind else _prep(field, value)


def _build(model: type[models.Model], row: tuple, names: list[str], converters: list[list[Any]], db: Any) -> Any:
    """The instance `model.from_db` would build from these columns (the others deferred), without its
    `Model.__init__` (a call per field through the descriptors) where no receiver listens to the model's init
    signals. A profile put `from_db` at 2% of a live move's server time."""
    values = list(row)
    for index, funcs in enumerate(converters):
        if funcs:
            value = values[index]
            for func in funcs:
                value = func(value, None, db)
            values[index] = value
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(db.alias, names, values)
    instance = model.__new__(model)
    instance.__dict__.update(zip(names, values, strict=True))
    state = instance._state = ModelState()
    state.adding = False
    state.db = db.alias
    return instance


def _execute(sql: str, params: list[Any], fetch: Callable[[Any], Any] | None = None) -> Any:
    """Run one statement (and `fetch` its rows). On PostgreSQL, through a server-side-binding cursor that prepares
    the statement once per connection (unless it is off, `_prepares`): Django's own cursors bind
    parameters on the client, so PostgreSQL parses and plans every move's statements, and the whole state is
    quoted into the text of the UPDATE. Errors are Django's, and the statement shows in `connection.queries`."""
    db = connections[DEFAULT_DB_ALIAS]  # once: each attribute of `connection` looks the connection up again
    if db.vendor != "postgresql":
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return fetch(cursor) if fetch else None
    import psycopg  # loaded only on PostgreSQL

    db.ensure_connection()
    start = time.monotonic()
    pg = db.connection
    if pg.prepare_threshold is None:
        # Django opens psycopg's connections with automatic preparing off, and psycopg then prepares nothing, not
        # even a statement asked for by `prepare=True`: a threshold never reached lets exactly those be prepared.
        pg.prepare_threshold = PREPARE_NOTHING_ELSE
    cursor = _kept_cursor(db, pg, psycopg.Cursor)
    with db.wrap_database_errors:
        cursor.execute(sql, params, prepare=_prepares(db, pg))
        result = fetch(cursor) if fetch else None
    _logged(db, sql, start)
    return result


def _kept_cursor(db: Any, pg: Any, kind: type) -> Any:
    """A cursor of this `kind` on the connection `pg`, kept between moves: a new one per statement built new
    dumpers for the JSON parameters each time, and cost a tenth of the lock's statement."""
    key = f"_move_{kind.__name__}"
    cursor = db.__dict__.get(key)
    if cursor is None or cursor.closed or cursor.connection is not pg:
        cursor = db.__dict__[key] = kind(pg)
    return cursor


def _opens_transaction(db: Any) -> bool:
    """Whether the next statement opens Django's transaction (an atomic block that has sent nothing yet): psycopg
    would then send BEGIN on its own first, and wait for its answer."""
    from psycopg.pq import TransactionStatus  # psycopg is loaded only on PostgreSQL

    db.ensure_connection()
    pg = db.connection
    return db.in_atomic_block and not pg.autocommit and pg.info.transaction_status == TransactionStatus.IDLE


def _begin_and_fetch_one(db: Any, sql: str, params: list[Any]) -> tuple | None:
    """BEGIN and this statement in one round trip, not two, and its first row. psycopg's own flag is set to
    autocommit, so that it sends no BEGIN of its own, and both go as one simple query, bound on the client.
    Django's transaction goes on unchanged: its COMMIT or ROLLBACK ends it.

    The statement is prepared by SQL's PREPARE once per connection (unless it is off, `_prepares`) and
    run by EXECUTE: PostgreSQL then neither parses nor plans the lock on every move, which was a fifth of its
    CPU for the lock and the commit. psycopg's DEALLOCATE ALL after a rollback also drops it: the EXECUTE then
    fails, the failed transaction is rolled back (nothing was read or locked yet), and it is prepared again."""
    import psycopg  # loaded only on PostgreSQL

    start = time.monotonic()
    pg = db.connection
    pg.autocommit = True
    cursor = _kept_cursor(db, pg, psycopg.ClientCursor)
    with db.wrap_database_errors:
        if not _prepares(db, pg):
            cursor.execute(f"BEGIN; {sql}", params)
        else:
            name, prepare, execute = _prepared_form(sql)
            prepared = _prepared_names(db, pg)
            if name in prepared:
                try:
                    cursor.execute(f"BEGIN; {execute}", params)
                except psycopg.errors.InvalidSqlStatementName:
                    cursor.execute("ROLLBACK")
                    prepared.discard(name)
            if name not in prepared:
                # Noted first: a PREPARE stays prepared when the rest of its query fails (a lock timeout).
                prepared.add(name)
                cursor.execute(f"BEGIN; {prepare}; {execute}", params)
        while cursor.nextset():  # the answers of BEGIN (and PREPARE) come first
            pass
        row = cursor.fetchone()
    _logged(db, sql, start)
    return row


@cache
def _prepared_form(sql: str) -> tuple[str, str, str]:
    """(a name for this statement, named after its text; its PREPARE, the parameters numbered and their types
    left to PostgreSQL to infer from where they stand; its EXECUTE, with the statement's placeholders)."""
    parts = sql.split("%s")
    numbered = "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], start=1)) + parts[-1]
    name = f"catan_{zlib.crc32(sql.encode()):08x}"
    return name, f"PREPARE {name} AS {numbered}", f"EXECUTE {name}({', '.join(['%s'] * (len(parts) - 1))})"


def _prepares(db: Any, pg: Any) -> bool:
    """Whether the move's statements are prepared on the connection `pg`: DB_PREPARED_STATEMENTS true or false,
    or by default ("auto") when `pg` reaches PostgreSQL itself. Behind a pooler in transaction mode (PgBouncer)
    a statement prepared in one transaction is gone, or already there, in the next: the server connection
    changes. Asked once per connection, before its first move's BEGIN."""
    choice = settings.DB_PREPARED_STATEMENTS
    if choice != "auto":
        return bool(choice)
    held = db.__dict__.get("_move_direct")
    if held is None or held[0] is not pg:
        held = db.__dict__["_move_direct"] = (pg, _reaches_postgres_itself(pg))
    return held[1]


def _reaches_postgres_itself(pg: Any) -> bool:
    """Whether the server's own address and port, as PostgreSQL sees the connection, are the ones `pg` connected
    to. A pooler or any proxy in between answers with its own connection's (PgBouncer on 6432, PostgreSQL on
    5432): then nothing is prepared. A Unix socket on the server's side tells nothing: taken as direct (set
    DB_PREPARED_STATEMENTS=false behind a pooler that reaches PostgreSQL by a socket)."""
    with pg.cursor() as cursor:  # in autocommit: no transaction of its own; one round trip per connection
        cursor.execute("SELECT host(inet_server_addr()), inet_server_port()")
        address, port = cursor.fetchone()
    if port is None:
        return True
    return port == pg.info.port and (not pg.info.hostaddr or address == pg.info.hostaddr)


def _prepared_names(db: Any, pg: Any) -> set[str]:
    """The statements this code has prepared on the connection `pg` (a new connection starts with none)."""
    held = db.__dict__.get("_move_prepared")
    if held is None or held[0] is not pg:
        held = db.__dict__["_move_prepared"] = (pg, set())
    return held[1]


def _logged(db: Any, sql: str, start: float) -> None:
    """The statement in `connection.queries` (when Django keeps them: DEBUG, the query-count tests), as Django's
    own cursors log theirs."""
    if db.queries_logged:
        db.queries_log.append({"sql": sql, "time": f"{time.monotonic() - start:.3f}"})


@dataclass(slots=True)
class SeatRow:
    """What a move needs of a seat: who sits there and their standing orders."""

    index: int
    user_id: int | None
    bot: str
    standing_orders: dict[str, Any]


def lock_game(game_id: int, known_state: str | None = None) -> Game | None:
    """The game row, locked until the transaction ends (SELECT ... FOR UPDATE where the database has it). On
    PostgreSQL the same statement brings its seats, for `seats_of`; and its `state` is None when the stored
    snapshot's MD5 digest is `known_state` (the caller holds that snapshot decoded: games/store/state_cache.py)."""
    db = connections[DEFAULT_DB_ALIAS]
    names, columns, converters = _reader(Game, db.vendor)
    table = db.ops.quote_name(Game._meta.db_table)
    postgres = db.vendor == "postgresql"
    seats = ""
    params: list[Any] = [game_id]
    if postgres:
        state = f"{table}.{db.ops.quote_name('state')}"
        columns = columns.replace(state, f"CASE WHEN md5({state}::text) = %s THEN NULL ELSE {state} END", 1)
        params.insert(0, known_state)
        seat_table = db.ops.quote_name(Seat._meta.db_table)
        seats = (
            ", (SELECT json_agg(json_build_array(s.index, s.user_id, s.bot, s.standing_orders))::text "
            f"FROM {seat_table} s WHERE s.game_id = {table}.id)"
        )
    sql = f"SELECT {columns}{seats} FROM {table} WHERE {table}.id = %s"
    if db.features.has_select_for_update:
        sql += " FOR UPDATE"
    if postgres and _opens_transaction(db):
        row = _begin_and_fetch_one(db, sql, params)
    else:
        row = _execute(sql, params, lambda cursor: cursor.fetchone())
    if row is None:
        return None
    game = _build(Game, row[: len(names)], names, converters, db)
    if postgres:
        game._seat_rows = {s[0]: SeatRow(*s) for s in orjson.loads(row[-1] or "[]")}
    return game


def seats_of(game: Game) -> dict[int, SeatRow]:
    """The seats of a game from `lock_game`, by index."""
    held = getattr(game, "_seat_rows", None)
    if held is not None:
        return held
    quote = connection.ops.quote_name
    columns = ", ".join(quote(c) for c in ("index", "user_id", "bot", "standing_orders"))
    sql = f"SELECT {columns} FROM {quote(Seat._meta.db_table)} WHERE game_id = %s"
    rows = _execute(sql, [game.pk], lambda cursor: cursor.fetchall())
    return {row[0]: SeatRow(row[0], row[1], row[2], _json_from_db(row[3], None, connection)) for row in rows}


@cache
def _writer(
    model: type[models.Model], names: tuple[str, ...], vendor: str
) -> tuple[list[models.Field], str, list[Callable[[Any], Any]]]:
    """(the fields, their column list, each one's `_preparer`)."""
    fields = [model._meta.get_field(name) for name in names]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    return fields, columns, [_preparer(f, vendor) for f in fields]


MOVE_FIELDS = ("game_id", "seq", "seat", "action", "events", "idempotency_key", "user_id", "cause", "created_at")


def add_move(game: Game, **values: Any) -> None:
    """Queue one move row (`values` by field name, those of MOVE_FIELDS but `created_at`) to be written with the
    game by `save_game`."""
    values["created_at"] = timezone.now()
    fields, _, preps = _writer(Move, MOVE_FIELDS, connections[DEFAULT_DB_ALIAS].vendor)
    row = [prep(values[field.attname]) for field, prep in zip(fields, preps, strict=True)]
    game.__dict__.setdefault("_new_moves", []).append(row)


def _as_is(text: str) -> str:
    return text


def save_game(game: Game, names: list[str], state_text: str | None = None) -> None:
    """Write the moves queued by `add_move` and UPDATE these fields of the game row. On PostgreSQL that is one
    statement (the INSERT in a WITH clause); elsewhere, one for the moves and one for the game. `state_text`: the
    game's `state` already encoded (`json_dumps`), stored as it is."""
    db = connections[DEFAULT_DB_ALIAS]
    postgres = db.vendor == "postgresql"
    moves = game.__dict__.pop("_new_moves", [])
    fields, _, preps = _writer(Game, tuple(names), db.vendor)
    sets = ", ".join(f"{db.ops.quote_name(f.column)} = %s" for f in fields)
    params = []
    for field, prep in zip(fields, preps, strict=True):
        if field.attname == "state" and state_text is not None:
            if postgres:
                from psycopg.types.json import Json  # psycopg is loaded only on PostgreSQL

                params.append(Json(state_text, dumps=_as_is))
            else:
                params.append(state_text)
        else:
            params.append(prep(getattr(game, field.attname)))
    table = db.ops.quote_name(Game._meta.db_table)
    update = f"UPDATE {table} SET {sets} WHERE id = %s"
    if not moves:
        _execute(update, [*params, game.pk])
        return
    _, columns, _ = _writer(Move, MOVE_FIELDS, db.vendor)
    one = f"({', '.join(['%s'] * len(MOVE_FIELDS))})"
    move_table = db.ops.quote_name(Move._meta.db_table)
    insert = f"INSERT INTO {move_table} ({columns}) VALUES {', '.join([one] * len(moves))}"
    values = [value for move in moves for value in move]
    if postgres:
        _execute(f"WITH new_moves AS ({insert}) {update}", [*values, *params, game.pk])
    else:
        _execute(insert, values)
        _execute(update, [*params, game.pk])


def state_of(game_id: int) -> Any:
    """The game's stored snapshot, decoded (for a move whose decoded copy went missing after the row was locked)."""
    table = connections[DEFAULT_DB_ALIAS].ops.quote_name(Game._meta.db_table)
    text = _execute(f"SELECT state FROM {table} WHERE id = %s", [game_id], lambda cursor: cursor.fetchone()[0])
    return _json_from_db(text, None, None)
