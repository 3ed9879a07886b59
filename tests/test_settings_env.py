"""Settings pick each backend from the environment alone."""

from pathlib import Path

from catan_site.env_config import cache_config, celery_config, channel_layers_config, database_config, email_backend


def test_no_environment_gives_embedded_backends():
    assert database_config({}, Path("/srv"))["ENGINE"] == "django.db.backends.sqlite3"
    assert channel_layers_config({})["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert cache_config({})["default"]["BACKEND"].endswith("LocMemCache")
    celery = celery_config({})
    assert celery["task_always_eager"] is True
    assert celery["broker_url"] == "memory://"
    assert email_backend({}) == "django.core.mail.backends.console.EmailBackend"


def test_database_url_selects_postgresql():
    config = database_config({"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test"}, Path("/srv"))
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "test"
    assert config["HOST"] == "127.0.0.1"


def test_redis_url_selects_redis_for_channels_celery_and_cache():
    env = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    layer = channel_layers_config(env)["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://127.0.0.1:6379/0"]
    assert cache_config(env)["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    celery = celery_config(env)
    assert celery["broker_url"] == "redis://127.0.0.1:6379/0"
    assert celery["task_always_eager"] is False


def test_email_host_selects_smtp():
    assert email_backend({"EMAIL_HOST": "mail.example.com"}) == "django.core.mail.backends.smtp.EmailBackend"


def test_running_settings_follow_the_environment(settings):
    import os

    if os.environ.get("DATABASE_URL"):
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    else:
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    expected = "RedisChannelLayer" if os.environ.get("REDIS_URL") else "InMemoryChannelLayer"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(expected)
