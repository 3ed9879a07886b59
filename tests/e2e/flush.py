"""Flushing the database after a test while the site's own process may still be writing (browser tests)."""

from __future__ import annotations

import time

from django.core.management.base import CommandError

FLUSH_ATTEMPTS = 5
FLUSH_PAUSE = 1.0  # seconds between attempts: the other transaction (a bot's move) ends well within it


def deadlocked(error: CommandError) -> bool:
    """The flush failed because PostgreSQL broke a deadlock by cancelling it (flush wraps the database's error)."""
    return "deadlock detected" in str(error.__cause__)


class FlushRetry:
    """A TransactionTestCase mixin: flush as Django does, and again when PostgreSQL broke a deadlock against the
    flush. In browser tests the site runs in its own process and bots play on there after the test's last
    click: TRUNCATE, locking its tables one by one, can meet a bot's transaction that holds one it needs while
    waiting for one TRUNCATE already holds. PostgreSQL cancels the flush, which rolls back whole; once the bot's
    transaction has ended, the flush goes through."""

    flush_retries = 0  # flushes cancelled and retried, for the test that proves it

    def _fixture_teardown(self) -> None:
        for attempt in range(FLUSH_ATTEMPTS):
            try:
                super()._fixture_teardown()  # type: ignore[misc]
                return
            except CommandError as error:
                if not deadlocked(error) or attempt == FLUSH_ATTEMPTS - 1:
                    raise
                type(self).flush_retries += 1
                time.sleep(FLUSH_PAUSE)
