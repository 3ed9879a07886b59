"""With Redis down (a private instance, stopped by PID), play goes on: a move is accepted (the rate limit fails
open, logged), a password log-in works (allauth's limits fail open), and the game's state loads over HTTP. With
the one Redis of a deployment (broker, cache, channel layer) stopped, an email game goes on at normal speed, and
its bots and mail resume, once each, when Redis returns."""

from __future__ import annotations

import time

import pytest
from allauth.account.models import EmailAddress
from channels.layers import channel_layers
from django.test import Client
from rest_framework.test import APIClient

import rules
from games.mail import notifications
from games.models import Move, Notification
from tests.games.helpers import started_game, state_of
from tests.games.private_services import PrivateRedis, SmtpCatcher, Worker, forget_connections, wait_until
from tests.games.tasks.conftest import async_game


@pytest.fixture
def redis_down(settings):
    private = PrivateRedis()
    private.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "infra.cache.FailOpenRedisCache",
            "LOCATION": private.url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    private.stop()
    yield
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.mark.django_db
def test_moves_and_log_ins_go_on_with_redis_down(redis_down):
    game, (alice, _bob) = started_game()
    api = APIClient()
    api.force_authenticate(alice)
    action = rules.legal_actions(state_of(game), 0)[0]
    response = api.post(f"/api/games/{game.pk}/moves/", {"action": action, "seq": 0}, format="json")
    assert response.status_code == 200, response.content
    assert Move.objects.filter(game=game).count() == 1
    assert api.get(f"/api/games/{game.pk}/").json()["seq"] == 1  # the page's state, over HTTP
    alice.set_password("a long passphrase")
    alice.save()
    EmailAddress.objects.update_or_create(user=alice, email=alice.email, defaults={"verified": True, "primary": True})
    response = Client().post("/accounts/login/", {"login": alice.username, "password": "a long passphrase"})
    assert response.status_code == 302


@pytest.fixture
def one_redis(postgres, settings):
    """A deployment's one Redis (a private redis-server on a free port): the broker, the cache and the channel
    layer, for this process and for a real worker with its beat (a subprocess), which sends mail to an SMTP
    catcher of its own (another process)."""
    from catan_site.celery import app
    from catan_site.env_config import cache_config, channel_layers_config

    private = PrivateRedis()
    private.start()
    catcher = SmtpCatcher()
    catcher.start()
    settings.SITE_URL = "http://testserver"  # as the worker's (links and Message-IDs name it)
    settings.CACHES = cache_config({"REDIS_URL": private.url})
    settings.CHANNEL_LAYERS = channel_layers_config({"REDIS_URL": private.url})
    channel_layers.backends.clear()
    previous = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=private.url, task_always_eager=False)
    forget_connections(app)
    worker = Worker(private.url, EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(catcher.port), SITE_URL="http://testserver")
    worker.start()
    yield private, catcher, worker
    worker.kill()
    catcher.stop()
    private.stop()
    app.conf.update(previous)
    forget_connections(app)
    channel_layers.backends.clear()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def _rest_move(api: APIClient, game, seat: int) -> float:
    game.refresh_from_db()
    action = rules.legal_actions(rules.load(game.state), seat)[0]
    started = time.monotonic()
    response = api.post(f"/api/games/{game.pk}/moves/", {"action": action, "seq": game.seq}, format="json")
    took = time.monotonic() - started
    assert response.status_code == 200, response.content
    return took


@pytest.mark.django_db(transaction=True)
def test_with_its_one_redis_stopped_an_email_game_goes_on_and_bots_and_mail_resume_once_when_it_returns(one_redis):
    private, catcher, worker = one_redis
    game, (alice, bob) = async_game(humans=2, bots=1)
    wait_until(lambda: len(catcher.messages) == 2, timeout=60)  # by the worker: Alice's turn, Bob's "started"
    apis = []
    for user in (alice, bob):
        api = APIClient()
        api.force_authenticate(user)
        apis.append(api)
    private.stop()  # the broker, the cache and the channel layer, killed by PID
    latencies = [_rest_move(apis[0], game, 0), _rest_move(apis[0], game, 0)]  # Alice's set-up turn: Bob's turn
    page = Client()
    page.force_login(bob)
    assert page.get(f"/games/{game.pk}/").status_code == 200
    state = page.get(f"/api/games/{game.pk}/").json()  # what the page loads over HTTP when its socket cannot
    assert state["seq"] == 2 and state["your_seat"] == 1
    latencies += [_rest_move(apis[1], game, 1), _rest_move(apis[1], game, 1)]  # Bob's: now the bot's turn
    assert max(latencies) < 1.0, latencies
    assert not Move.objects.filter(game=game, seat=2).exists()  # its task could not be queued
    bob_turn = Notification.objects.get(game=game, user=bob, kind="turn", seq=2)
    private.start()  # back on the same port
    forget_connections(app_of_this_process())
    # The worker's beat sweeps the lost bot turn back into the queue; the bot plays its two set-up turns and
    # Bob is asked again: his one mail.
    wait_until(lambda: rules.to_move(state_of(game)) == [1], timeout=90)
    app_of_this_process().send_task("games.notifications_flush")  # what beat sends every minute
    wait_until(lambda: len(catcher.to(bob.email)) == 2, timeout=60)
    app_of_this_process().send_task("games.notifications_flush")  # nothing more to send
    time.sleep(3)
    assert Move.objects.filter(game=game, seat=2, cause="bot").count() == 4
    mails = catcher.messages
    assert len({m["Message-ID"] for m in mails}) == len(mails) == 3
    bob_turn.refresh_from_db()
    assert bob_turn.sent_at is None and bob_turn.dropped_at is not None  # he decided from the page: never stale
    latest = Notification.objects.filter(game=game, user=bob, kind="turn").latest("seq")
    assert catcher.to(bob.email)[-1]["Message-ID"] == notifications.message_id(latest)


def app_of_this_process():
    from catan_site.celery import app

    return app
