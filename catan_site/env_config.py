"""Which backend each service uses, decided from the environment alone (pure functions, easy to test).

With nothing set (a bare `manage.py`; `make run` and `make test` always give both URLs): SQLite, the in-memory
channel layer, eager Celery, a local-memory cache, and email to the console. DATABASE_URL and REDIS_URL switch
to PostgreSQL and Redis.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import environ


def database_config(env: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    url = env.get("DATABASE_URL")
    if url:
        config = environ.Env.db_url_config(url)
        # Seconds to keep a connection open. Live play wants it (each socket message would otherwise open a
        # new one); the test suite keeps 0 so that no thread holds the test database at teardown.
        config["CONN_MAX_AGE"] = int(env.get("DB_CONN_MAX_AGE", "0"))
        # A health check is a `SELECT 1` before the first query of every socket message, which doubles the
        # round trips of a move; off by default, since a broken connection is dropped after its first error.
        config["CONN_HEALTH_CHECKS"] = env.get("DB_CONN_HEALTH_CHECKS", "false").lower() in ("1", "true", "yes", "on")
        return config
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(base_dir / "db.sqlite3"),
        "OPTIONS": {"timeout": 20},
    }


def channel_layers_config(env: Mapping[str, str]) -> dict[str, Any]:
    url = env.get("REDIS_URL")
    # Channel and group names are prefixed with this: two sites sharing one Redis (two parallel test workers)
    # must pick different ones, since Pub/Sub channels are shared by every database of a server.
    prefix = env.get("CHANNEL_LAYER_PREFIX", "asgi")
    # A fleet shards the layer over several Redis servers by channels_redis's own sharding (CHANNEL_LAYER_URLS,
    # comma-separated; REDIS_URL alone otherwise).
    urls = [u.strip() for u in env.get("CHANNEL_LAYER_URLS", "").split(",") if u.strip()] or ([url] if url else [])
    if urls:
        if env.get("CHANNEL_LAYER", "pubsub") == "pubsub":
            # Redis Pub/Sub: a group message is one PUBLISH, delivered to every subscribed process at once.
            # RESP2: with RESP3 (redis-py's default) every message is a "push" that redis-py formats for a debug
            # log line, even with the log off; for a 15 KB move that was 6% of a server's CPU.
            return {
                "default": {
                    "BACKEND": "infra.realtime.layers.PubSubChannelLayer",
                    "CONFIG": {"hosts": [{"address": u, "protocol": 2} for u in urls], "prefix": prefix},
                }
            }
        return {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": urls, "capacity": 1500, "expiry": 30, "prefix": prefix},
            }
        }
    return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def cache_config(env: Mapping[str, str]) -> dict[str, Any]:
    url = env.get("CACHE_REDIS_URL") or env.get("REDIS_URL")  # a fleet gives the cache a Redis of its own
    if url:
        # Short timeouts: a Redis that is down or stalled fails open at once (infra/cache.py).
        options = {"socket_connect_timeout": 1, "socket_timeout": 2}
        return {"default": {"BACKEND": "infra.cache.FailOpenRedisCache", "LOCATION": url, "OPTIONS": options}}
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "catan"}}


def celery_config(env: Mapping[str, str]) -> dict[str, Any]:
    url = env.get("CELERY_BROKER_URL") or env.get("REDIS_URL")
    if url:
        return {"broker_url": url, "result_backend": url, "task_always_eager": False}
    return {"broker_url": "memory://", "result_backend": "cache+memory://", "task_always_eager": True}


def email_backend(env: Mapping[str, str]) -> str:
    if env.get("EMAIL_BACKEND"):
        return env["EMAIL_BACKEND"]
    if env.get("EMAIL_HOST"):
        return "django.core.mail.backends.smtp.EmailBackend"
    return "django.core.mail.backends.console.EmailBackend"
