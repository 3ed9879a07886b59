"""/healthz reports each service, and a down Redis as failing (503), never crashing."""

import pytest

from catan_site.env_config import celery_config, channel_layers_config

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


def test_healthz_reports_down_redis_as_failing(client, settings):
    from channels.layers import channel_layers

    from catan_site.celery import app

    dead = "redis://127.0.0.1:1/0"
    settings.CHANNEL_LAYERS = channel_layers_config({"REDIS_URL": dead})
    channel_layers.backends.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    previous = app.conf.broker_url
    app.conf.task_always_eager = False
    app.conf.broker_url = celery_config({"REDIS_URL": dead})["broker_url"]
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = previous
        channel_layers.backends.clear()
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["channel_layer"]["ok"] is False
    assert body["checks"]["broker"]["ok"] is False
