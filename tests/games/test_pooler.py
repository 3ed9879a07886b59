"""Issue "A fleet": the move path behind PgBouncer in transaction mode, with no flag to remember. Two real server
processes reach the test database through a real PgBouncer whose small pool hands each transaction whichever
server connection is free: the prepared lock is found to be unsafe there and is not prepared, so every move of a
four-seat game is acknowledged and stored once, and the log replays to the stored position."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from devstack.proxies import PgBouncer, missing_packages
from games.store.move_sql import _reaches_postgres_itself
from tests.games.helpers import started_game
from tests.games.servers import (
    assert_stored_once_and_replayable,
    play_over_sockets,
    running_servers,
    server_env,
    session_for,
)


def _need_fleet_packages() -> None:
    missing = missing_packages()
    if missing:
        message = f"the fleet's Debian packages are missing ({', '.join(missing)}): apt-get install haproxy pgbouncer"
        if os.environ.get("REQUIRE_FLEET"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def pgbouncer(postgres):
    _need_fleet_packages()
    settings = connection.settings_dict
    bouncer = PgBouncer(Path(tempfile.mkdtemp(prefix="pgbouncer-")), int(settings["PORT"] or 5432), pool_size=2)
    bouncer.start()
    yield bouncer, settings["NAME"]
    bouncer.stop()


def test_a_connection_through_pgbouncer_is_told_from_a_direct_one(pgbouncer):
    bouncer, name = pgbouncer
    direct = connection.settings_dict
    with psycopg.connect(host="127.0.0.1", port=int(direct["PORT"] or 5432), user="postgres", dbname=name) as pg:
        pg.autocommit = True
        assert _reaches_postgres_itself(pg)
    with psycopg.connect(host="127.0.0.1", port=bouncer.port, user="postgres", dbname=name) as pg:
        pg.autocommit = True
        assert not _reaches_postgres_itself(pg)


@pytest.mark.django_db(transaction=True)
def test_moves_through_pgbouncer_in_transaction_mode_are_each_stored_once(pgbouncer, redis_url):
    bouncer, name = pgbouncer
    env = server_env(redis_url)
    env.update(DATABASE_URL=bouncer.url(name), DB_CONN_MAX_AGE="60")
    with running_servers(env, 2) as (ports, _processes):
        game, users = started_game(humans=4, bots=0)
        sessions = [session_for(user) for user in users]
        moves = 40
        acked = asyncio.run(play_over_sockets(game.pk, sessions, [ports[seat % 2] for seat in range(4)], moves, "pool"))
    assert_stored_once_and_replayable(game.pk, acked, moves)
