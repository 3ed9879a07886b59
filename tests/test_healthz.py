"""/healthz reports each service, and a down Redis as failing (503), never crashing; only staff and callers on
the machine itself see the details (hosts, ports, errors)."""

from collections.abc import Iterator

import pytest

from catan_site.env_config import celery_config, channel_layers_config
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_healthz_all_ok(client, memory_channel_layer):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "channel_layer", "broker"}
    assert all(check["ok"] for check in body["checks"].values())


def test_healthz_with_real_redis(client, redis_channel_layer, redis_url, settings):
    from catan_site.celery import app

    app.conf.task_always_eager = False
    app.conf.broker_url = redis_url
    settings.CELERY_TASK_ALWAYS_EAGER = False
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["checks"]["channel_layer"]["detail"] == "PubSubChannelLayer"
    assert body["checks"]["broker"]["ok"] is True


@pytest.fixture
def down_redis(settings) -> Iterator[None]:
    """The channel layer and the broker point at a closed port."""
    from channels.layers import channel_layers

    from catan_site.celery import app

    dead = "redis://127.0.0.1:1/0"
    settings.CHANNEL_LAYERS = channel_layers_config({"REDIS_URL": dead})
    channel_layers.backends.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    previous = app.conf.broker_url
    app.conf.task_always_eager = False
    app.conf.broker_url = celery_config({"REDIS_URL": dead})["broker_url"]
    yield
    app.conf.broker_url = previous
    channel_layers.backends.clear()


def test_healthz_reports_down_redis_as_failing(client, down_redis):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["channel_layer"]["ok"] is False
    assert body["checks"]["broker"]["ok"] is False
    assert "127.0.0.1:1" in body["checks"]["channel_layer"]["detail"]


def test_healthz_tells_a_remote_caller_what_fails_but_not_where(client, down_redis):
    response = client.get("/healthz", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"] == {"database": {"ok": True}, "channel_layer": {"ok": False}, "broker": {"ok": False}}
    assert b"127.0.0.1" not in response.content and b"Error" not in response.content


def test_healthz_gives_staff_the_details_from_anywhere(client, down_redis):
    client.force_login(UserFactory(is_staff=True))
    response = client.get("/healthz", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 503
    assert "127.0.0.1:1" in response.json()["checks"]["channel_layer"]["detail"]
