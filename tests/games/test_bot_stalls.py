"""A live game with bots never stalls for good when a bot's task is lost: with the broker stopped when the move
commits, and with the worker killed holding the task. A private Redis (its own port, stopped and started by PID)
is the broker; a real Celery worker with its beat runs in a subprocess on the test database."""

from __future__ import annotations

import time

import pytest
import redis

import rules
from games import services
from games.models import Game, Move
from tests.games.helpers import started_game, state_of
from tests.games.private_services import PrivateRedis, Worker, forget_connections

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker(postgres, settings):
    """The site's Celery app publishing to a private Redis, as a deployment with a broker does."""
    from catan_site.celery import app

    private = PrivateRedis()
    private.start()
    previous = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=private.url, task_always_eager=False)
    forget_connections(app)
    settings.BOT_LIVE_DELAY_SECONDS = 0.5
    yield private
    private.stop()
    app.conf.update(previous)
    forget_connections(app)


@pytest.fixture
def worker_process(broker):
    worker = Worker(broker.url)
    yield worker
    worker.kill()


def _setup_moves(game: Game, user) -> None:
    """The person places a settlement and a road: then a bot must act."""
    for _ in range(2):
        state = state_of(game)
        services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, 0)[0])


def _bots_moved(game: Game, before: int) -> bool:
    return Move.objects.filter(game=game).exclude(seat=0).count() > before


def _wait(condition, timeout: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s")


def test_a_move_made_while_the_broker_is_down_answers_at_once_and_the_bot_plays_when_it_returns(
    broker, worker_process
):
    game, (alice,) = started_game(humans=1, bots=2)
    broker.stop()
    started = time.monotonic()
    _setup_moves(game, alice)  # stored; queueing the bot's turn fails after the commit
    assert time.monotonic() - started < 5
    assert rules.to_move(state_of(game)) == [1] and not _bots_moved(game, 0)
    broker.start()
    worker_process.start()
    _wait(lambda: _bots_moved(game, 0), timeout=60)


def test_a_worker_killed_holding_the_bot_s_task_does_not_stall_the_game(broker, worker_process, settings):
    game, (alice,) = started_game(humans=1, bots=2)
    settings.BOT_LIVE_DELAY_SECONDS = 10  # the worker reserves the task at once and holds it until then
    worker_process.start()
    _setup_moves(game, alice)
    # The worker holds the bot's turn (as soon as it is up: a loaded machine starts it in seconds, not at once).
    _wait(lambda: redis.Redis.from_url(broker.url).hlen("unacked") == 1, timeout=8)
    worker_process.kill()
    assert not _bots_moved(game, 0)
    worker_process.start()
    _wait(lambda: _bots_moved(game, 0), timeout=60)
