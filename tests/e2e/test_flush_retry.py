"""A flush that PostgreSQL cancels to break a deadlock (a bot's move still being stored by the site's process
when a browser test ends) is retried, and the database ends empty: the deadlock is made here on purpose."""

from __future__ import annotations

import threading
import time

import psycopg
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection
from django.test import TransactionTestCase

from accounts.models import User
from tests.e2e.flush import FlushRetry


def flushed_tables() -> list[str]:
    """The tables of the flush's TRUNCATE, in the order it names (and locks) them."""
    (statement,) = sql_flush(no_style(), connection, reset_sequences=True, allow_cascade=False)
    names = statement.split("TRUNCATE", 1)[1].split(";")[0]
    return [name.strip().strip('"') for name in names.split(" RESTART")[0].split(",")]


class FlushRetryTests(FlushRetry, TransactionTestCase):
    def test_a_flush_cancelled_by_a_deadlock_is_retried(self):
        User.objects.create(username="left-behind", email="left@example.com")
        tables = flushed_tables()
        first, last = tables[0], tables[-1]
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        holding, outcome = threading.Event(), {}

        def bot_move() -> None:
            # Another process's transaction: holds the last table, then wants the first one while TRUNCATE,
            # holding the first, waits for the last: PostgreSQL cancels whichever waited first (the flush).
            with psycopg.connect(**params) as other:
                other.execute(f'LOCK TABLE "{last}" IN ROW EXCLUSIVE MODE')
                holding.set()
                waited = time.monotonic()
                while not other.execute(
                    "SELECT 1 FROM pg_locks WHERE NOT granted AND relation = %s::regclass", [last]
                ).fetchone():
                    if time.monotonic() - waited > 30:
                        outcome["error"] = "the flush never waited for the last table"
                        return
                    time.sleep(0.02)
                other.execute(f'LOCK TABLE "{first}" IN ROW EXCLUSIVE MODE')
                outcome["locked"] = True
                time.sleep(0.2)
                other.rollback()

        thread = threading.Thread(target=bot_move)
        thread.start()
        assert holding.wait(10)
        before = type(self).flush_retries
        self._fixture_teardown()
        thread.join(30)

        assert outcome == {"locked": True}
        assert type(self).flush_retries == before + 1
        assert not User.objects.exists()
