"""Settings pick each backend from the environment alone."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import environ

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
    assert layer["BACKEND"] == "infra.realtime.layers.PubSubChannelLayer"
    assert layer["CONFIG"]["hosts"] == [{"address": "redis://127.0.0.1:6379/0", "protocol": 2}]
    core = channel_layers_config({**env, "CHANNEL_LAYER": "core"})["default"]
    assert core["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert cache_config(env)["default"]["BACKEND"] == "infra.cache.FailOpenRedisCache"
    celery = celery_config(env)
    assert celery["broker_url"] == "redis://127.0.0.1:6379/0"
    assert celery["task_always_eager"] is False


def test_two_sites_on_one_redis_are_kept_apart_by_the_channel_prefix():
    env = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert channel_layers_config(env)["default"]["CONFIG"]["prefix"] == "asgi"
    for layer in ("pubsub", "core"):
        named = channel_layers_config({**env, "CHANNEL_LAYER": layer, "CHANNEL_LAYER_PREFIX": "asgi-gw1"})
        assert named["default"]["CONFIG"]["prefix"] == "asgi-gw1"


def test_email_host_selects_smtp():
    assert email_backend({"EMAIL_HOST": "mail.example.com"}) == "django.core.mail.backends.smtp.EmailBackend"


def test_running_settings_follow_the_environment(settings):
    if os.environ.get("DATABASE_URL"):
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    else:
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    expected = "PubSubChannelLayer" if os.environ.get("REDIS_URL") else "InMemoryChannelLayer"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(expected)


ROOT = Path(__file__).resolve().parent.parent
# env("X"), env.bool("X", ...), env.get("X"), env["X"]: every way settings.py and env_config.py read a variable.
READ_VARIABLE = re.compile(r"""env(?:\.\w+)?\(\s*"([A-Z0-9_]+)"|env\.get\("([A-Z0-9_]+)"|env\["([A-Z0-9_]+)"\]""")


def read_env_example() -> dict[str, str]:
    """The values a copy of .env.example as .env would give, parsed by django-environ as the settings do."""

    class Isolated(environ.Env):
        ENVIRON: dict[str, str] = {}

    Isolated.read_env(ROOT / ".env.example")
    return Isolated.ENVIRON


def test_env_example_documents_every_variable_the_settings_read():
    source = (ROOT / "catan_site" / "settings.py").read_text() + (ROOT / "catan_site" / "env_config.py").read_text()
    read = {name for groups in READ_VARIABLE.findall(source) for name in groups if name}
    documented = set(re.findall(r"^#?([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), flags=re.M))
    assert "DATABASE_URL" in read and "REDIS_URL" in read
    assert read - documented == set()


def test_env_example_copied_as_dot_env_gives_the_embedded_defaults():
    values = read_env_example()
    assert not any("#" in value for value in values.values()), "a trailing comment would become part of a value"
    script = (
        "import django, json; django.setup(); from django.conf import settings as s; print(json.dumps(["
        "s.DEBUG, s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], "
        "s.CELERY_TASK_ALWAYS_EAGER, s.EMAIL_BACKEND]))"
    )
    environment = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "catan_site.settings", **values}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [
        True,
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
        True,
        "django.core.mail.backends.console.EmailBackend",
    ]


def test_each_test_process_collects_static_files_into_a_folder_of_its_own():
    """`collectstatic` deletes and writes again every hashed .js and .css file. A WhiteNoise starting meanwhile
    in another process that reads the same folder (an in-process test's first request, a server a test starts)
    finds the manifest naming a file that is not there, and fails its start. So each pytest process has its own
    folder, which its servers inherit, and `make run`'s test writes the checkout's `staticfiles/` alone."""
    from django.conf import settings

    root = Path(settings.STATIC_ROOT)
    assert root != ROOT / "staticfiles"
    assert root == Path(os.environ["STATIC_ROOT"]) and str(os.getpid()) in root.name


def test_a_presence_heartbeat_over_half_its_lifetime_stops_the_start():
    """Presence renewed less often than twice a lifetime would let one late renewal count a seated player as gone."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "catan_site.settings"}
    env.update(PRESENCE_HEARTBEAT_SECONDS="40", PRESENCE_TTL_SECONDS="60")
    start = [sys.executable, "-c", "import django; django.setup()"]
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(start, cwd=root, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "PRESENCE_HEARTBEAT_SECONDS must be above 0 and at most half of PRESENCE_TTL_SECONDS" in done.stderr
