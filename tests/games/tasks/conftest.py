"""Play-by-email fixtures: a real SMTP server, a real Celery worker on Redis, and a clock the test drives."""

from __future__ import annotations

import datetime as dt
import email
import threading

import pytest
from aiosmtpd.controller import Controller

from devstack.embedded import free_port  # re-exported: the tests import it from here
from games import services
from tests.factories import UserFactory
from tests.games.private_services import forget_connections


class Inbox:
    def __init__(self) -> None:
        self.messages: list[email.message.Message] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[email.message.Message]:
        return [m for m in self.messages if address in m["To"]]


@pytest.fixture
def smtp(settings):
    """A real SMTP server on this machine, and Django sending mail to it."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.SITE_URL = "http://testserver"
    yield inbox
    controller.stop()


@pytest.fixture
def worker(private_redis):
    """A real Celery worker (threaded, in this process) consuming from a private Redis broker: never a queue that
    another test session's worker takes tasks from."""
    from celery.contrib.testing.worker import start_worker

    from catan_site.celery import app

    previous = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=private_redis.url, task_always_eager=False)
    forget_connections(app)
    app.private_redis = private_redis
    with start_worker(app, perform_ping_check=False, pool="solo", concurrency=1, loglevel="WARNING"):
        yield app
    app.conf.update(previous)
    forget_connections(app)
    del app.private_redis


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 11, 23, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock(monkeypatch):
    """Time as the test says: games.clocks.now() returns this clock's value."""
    from games import clocks as game_clock

    fake = Clock()
    monkeypatch.setattr(game_clock, "now", fake)
    return fake


def wait_for(condition, timeout: float = 10.0, describe=None) -> None:
    """Wait for the worker thread (a real wait on real I/O, not a stand-in for time). `describe`, when given, says
    what was found instead, in the failure's message."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("condition not met in time" + (f": {describe()}" if describe else ""))


HOUR = 3600


def async_game(humans: int = 2, bots: int = 1, policy: str = "bot", **kwargs):
    """A started play-by-email game (fixed seat order: the creator sits first); its users, creator first."""
    users = [UserFactory(email=f"p{i}-{UserFactory._meta.model.objects.count()}@example.com") for i in range(humans)]
    game = services.game_create(
        creator=users[0],
        seat_count=humans + bots,
        bot_seats=list(range(humans, humans + bots)),
        options={"seat_order": "fixed"},
        clock="async",
        move_seconds=kwargs.pop("move_seconds", HOUR),
        timeout_policy=policy,
        **kwargs,
    )
    for user in users[1:]:
        services.seat_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    return game, users
