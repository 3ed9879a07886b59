"""Notices held while their reader is at the table (issue 42), through the real transport: two ASGI server
processes sharing only PostgreSQL and Redis, real WebSockets open on them, the real Celery worker sending mail to a
real SMTP server, the bots playing through the worker. No socket open (an API client) is away: every other email
test is that case."""

from __future__ import annotations

import asyncio
import time

import pytest
from rest_framework.test import APIClient

import rules
from games import services
from games.live import presence
from games.mail import notifications
from games.models import Game, Notification
from rules.ai import move_for
from rules.ai.autoplay import bot_seed
from tests.factories import UserFactory
from tests.games.helpers import state_of
from tests.games.private_services import forget_connections
from tests.games.servers import free_port, open_socket, server_env, start_server, stop
from tests.games.tasks.conftest import wait_for

GRACE = 6  # long enough for two API moves on a loaded machine (CI runs two test processes and browsers)
DECISIONS = {"turn", "discard", "trade", "gold", "decision", "reminder"}


@pytest.fixture
def worker(private_redis):
    """The real Celery worker (threaded, in this process, so it reads this test's settings and cache) on a private
    broker, serving the bots' queue too: the bots play the game through it."""
    from celery.contrib.testing.worker import start_worker

    from catan_site.celery import app

    previous = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=private_redis.url, task_always_eager=False)
    forget_connections(app)
    with start_worker(
        app, perform_ping_check=False, pool="solo", concurrency=1, loglevel="WARNING", queues=["celery", "bots"]
    ):
        yield app
    app.conf.update(previous)
    forget_connections(app)


@pytest.fixture
def grace(settings):
    settings.NOTICE_GRACE_SECONDS = GRACE
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "moves": 100_000}
    return GRACE


def _game_against_bots() -> tuple[Game, object]:
    """A play-by-email game, its one person first against three bots, not started yet (its seat exists: a socket
    opened now counts them at the table)."""
    user = UserFactory(email=f"reader-{UserFactory._meta.model.objects.count()}@example.com")
    game = services.game_create(
        creator=user,
        seat_count=4,
        bot_seats=[1, 2, 3],
        options={"seat_order": "fixed"},
        clock="async",
        move_seconds=3600,
        timeout_policy="bot",
    )
    return game, user


def _rows(game: Game, user) -> list[dict]:
    """The player's outbox rows and presence, for a failure's message."""
    fields = ("pk", "kind", "seq", "send_after", "sent_at", "dropped_at", "attempts", "claimed_until", "last_error")
    rows = list(Notification.objects.filter(game=game, user=user).order_by("pk").values(*fields))
    return [*rows, {"at_table": presence.at_table(game.pk, user.pk), "now": time.time()}]


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _play_own_move(game: Game, client: APIClient) -> None:
    game.refresh_from_db()
    state = rules.load(game.state)
    action = move_for(state, 0, "medium", seed=bot_seed(game.bot_secret, game.seq, 0))
    response = client.post(f"/api/games/{game.pk}/moves/", {"action": action, "seq": game.seq}, format="json")
    assert response.status_code == 200, response.content


def _owes(game: Game) -> bool:
    """The person owes a decision now (the bots, played by the worker, have moved on to them)."""
    game.refresh_from_db()
    return game.status == Game.Status.ACTIVE and 0 in rules.to_move(rules.load(game.state))


def _unsettled(game: Game, user) -> bool:
    return Notification.objects.filter(game=game, user=user, sent_at__isnull=True, dropped_at__isnull=True).exists()


@pytest.mark.django_db(transaction=True)
def test_a_whole_email_game_against_bots_sends_no_notice_to_a_player_at_the_table(
    two_servers, smtp, worker, grace, monkeypatch
):
    game, user = _game_against_bots()
    client = _api(user)

    async def at_the_table() -> int:
        ws = await open_socket(two_servers[0], game.pk, user)
        try:
            await asyncio.to_thread(services.game_start, game_id=game.pk, user=user)
            moves = 0
            while True:
                await asyncio.to_thread(wait_for, lambda: _owes(game) or game.status != Game.Status.ACTIVE, 60)
                if game.status != Game.Status.ACTIVE:
                    return moves
                await asyncio.to_thread(_play_own_move, game, client)
                moves += 1
                assert moves < 1000, "the game did not end"
        finally:
            # Every notice settled (held ones come back after the grace and are found stale) before leaving.
            await asyncio.to_thread(wait_for, lambda: not _unsettled(game, user), 60)
            await ws.close()

    moves = asyncio.run(at_the_table())
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and moves > 20
    asked = Notification.objects.filter(game=game, user=user)
    # The bots' moves asked them to decide again and again (and told them of the end): every notice was written,
    # none was sent.
    assert asked.filter(kind__in=DECISIONS).count() > 10 and asked.filter(kind="game_over").exists()
    assert not asked.filter(sent_at__isnull=False).exists()
    time.sleep(GRACE + 1)  # gone now: nothing held comes after the grace either
    assert notifications.flush() == 0
    assert smtp.to(user.email) == []


@pytest.mark.django_db(transaction=True)
def test_a_notice_waits_while_any_web_process_holds_a_socket_and_goes_once_a_grace_after_the_last_closes(
    two_servers, smtp, worker, grace
):
    game, user = _game_against_bots()

    async def scenario() -> float:
        first = await open_socket(two_servers[0], game.pk, user)
        second = await open_socket(two_servers[1], game.pk, user)
        await asyncio.to_thread(
            services.game_start, game_id=game.pk, user=user
        )  # their first set-up turn: a turn notice, held
        await asyncio.to_thread(wait_for, lambda: Notification.objects.filter(game=game, user=user).exists(), 10)
        await first.close()  # still at the table, on the other process
        await asyncio.sleep(GRACE + 1.5)
        assert await asyncio.to_thread(smtp.to, user.email) == []
        await second.close()
        return time.monotonic()

    left_at = asyncio.run(scenario())
    wait_for(lambda: smtp.to(user.email), timeout=GRACE + 30)
    waited = time.monotonic() - left_at
    assert waited >= GRACE - 0.5, waited
    time.sleep(GRACE + 1)
    notifications.flush()
    mails = smtp.to(user.email)
    turn = Notification.objects.get(game=game, user=user, kind="turn")
    assert len(mails) == 1 and mails[0]["Message-ID"] == notifications.message_id(turn)
    assert turn.sent_at is not None and turn.attempts == 1  # held is not an attempt


@pytest.mark.django_db(transaction=True)
def test_a_decision_taken_during_the_grace_is_never_mailed_the_next_open_one_is_once(two_servers, smtp, worker, grace):
    game, user = _game_against_bots()
    client = _api(user)

    async def scenario() -> None:
        ws = await open_socket(two_servers[0], game.pk, user)
        await asyncio.to_thread(services.game_start, game_id=game.pk, user=user)
        await asyncio.to_thread(wait_for, lambda: Notification.objects.filter(game=game, user=user).exists(), 10)
        await ws.close()

    asyncio.run(scenario())
    first = Notification.objects.get(game=game, user=user)
    # Left the page, then played the first set-up turn over the API within the grace: that notice is stale.
    _play_own_move(game, client)
    _play_own_move(game, client)
    wait_for(lambda: _owes(game), timeout=30)  # the bots placed theirs; the second set-up turn is theirs now
    wait_for(lambda: smtp.to(user.email), timeout=GRACE + 30, describe=lambda: _rows(game, user))
    time.sleep(GRACE + 1)
    notifications.flush()
    first.refresh_from_db()
    assert first.sent_at is None and first.dropped_at is not None
    mails = smtp.to(user.email)
    current = Notification.objects.filter(game=game, user=user, sent_at__isnull=False).get()
    assert current.seq > first.seq and current.kind == "turn" and 0 in rules.to_move(state_of(game))
    assert len(mails) == 1 and mails[0]["Message-ID"] == notifications.message_id(current)


TTL, HEARTBEAT = 4.0, 1.0  # the killed server's sockets stop counting within TTL of its last heartbeat


@pytest.fixture
def short_lived_server(postgres, redis_url):
    """A real server process whose sockets' presence runs out TTL seconds after its last heartbeat; the test may
    kill it."""
    env = {**server_env(redis_url), "PRESENCE_TTL_SECONDS": str(TTL), "PRESENCE_HEARTBEAT_SECONDS": str(HEARTBEAT)}
    port = free_port()
    process = start_server(port, env)
    yield port, process
    if process.poll() is None:
        stop(process)


@pytest.mark.django_db(transaction=True)
def test_a_web_node_killed_with_the_socket_open_holds_the_notice_only_until_its_presence_runs_out(
    short_lived_server, smtp, worker, grace
):
    """A node SIGKILLed with a player's socket open closed nothing: their presence was a counter that lived a day,
    so their notices waited a day. Now each socket's presence runs out unless its node renews it: the notice goes
    once, a grace after the dead node's last renewal ran out, and not while the node lived."""
    port, process = short_lived_server
    game, user = _game_against_bots()

    async def scenario() -> float:
        await open_socket(port, game.pk, user)
        await asyncio.to_thread(services.game_start, game_id=game.pk, user=user)
        await asyncio.to_thread(wait_for, lambda: Notification.objects.filter(game=game, user=user).exists(), 10)
        # Alive, the node renews the socket's presence: long past TTL and the grace, the notice still waits.
        await asyncio.sleep(TTL + GRACE + 1.5)
        assert await asyncio.to_thread(smtp.to, user.email) == []
        process.kill()  # SIGKILL: no socket closes, no presence is removed
        process.wait()
        return time.monotonic()

    killed_at = asyncio.run(scenario())
    wait_for(lambda: smtp.to(user.email), timeout=TTL + GRACE + 30)
    waited = time.monotonic() - killed_at
    # The last renewal was at most HEARTBEAT before the kill: the presence ran out TTL after it, then the grace.
    assert waited >= TTL - HEARTBEAT + GRACE - 0.5, waited
    time.sleep(GRACE + 1)
    notifications.flush()
    mails = smtp.to(user.email)
    turn = Notification.objects.get(game=game, user=user, kind="turn")
    assert len(mails) == 1 and mails[0]["Message-ID"] == notifications.message_id(turn)
    assert turn.sent_at is not None and turn.attempts == 1
