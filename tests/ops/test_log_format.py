"""The two log formats, as a process started with each writes them: JSON for production (the default), readable
key=value lines for `make run` (which sets LOG_FORMAT=console); an unknown format stops the start with its name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import django
django.setup()
import logging
from infra import logs
logs.bind(request_id="r-42", game_id=7)
logs.get_logger("games.services.moves").info("move_accepted", seq=3)
logging.getLogger("django.request").warning("Not Found: %s", "/nowhere")
"""


def _run(log_format: str | None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "catan_site.settings", "LOG_LEVEL": "INFO"}
    env.pop("LOG_FORMAT", None)
    if log_format is not None:
        env["LOG_FORMAT"] = log_format
    return subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_by_default_each_line_is_one_json_object_with_the_context():
    done = _run(None)
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in done.stderr.splitlines()]
    move, django_line = found
    assert move["event"] == "move_accepted" and move["seq"] == 3
    assert move["request_id"] == "r-42" and move["game_id"] == 7 and move["level"] == "info"
    assert move["logger"] == "games.services.moves" and move["timestamp"].endswith("Z")
    # Django's own loggers come out the same way, their message formatted, with the same context.
    assert django_line["event"] == "Not Found: /nowhere" and django_line["request_id"] == "r-42"
    assert django_line["level"] == "warning"


def test_the_console_format_is_for_people():
    done = _run("console")
    assert done.returncode == 0, done.stderr
    move, django_line = done.stderr.splitlines()
    assert not move.startswith("{")
    assert "move_accepted" in move and "request_id=r-42" in move and "game_id=7" in move and "seq=3" in move
    assert "Not Found: /nowhere" in django_line


def test_an_unknown_format_is_refused_by_name():
    done = _run("xml")
    assert done.returncode != 0
    assert "LOG_FORMAT is one of json, console, not 'xml'" in done.stderr


def test_celerys_own_task_lines_come_only_from_warning_up():
    """django-structlog's task_started and task_succeeded say what Celery's "received" and "succeeded in" lines say;
    a task's failure (Celery logs it at ERROR, with its traceback) still comes."""
    script = SCRIPT.split("logs.bind")[0] + (
        'logging.getLogger("celery.app.trace").info("Task %s succeeded in %ss", "games.x[1]", 0.01)\n'
        'logging.getLogger("celery.worker.strategy").info("Task %s received", "games.x[1]")\n'
        'logging.getLogger("celery.app.trace").error("Task %s raised unexpected: %r", "games.x[2]", ValueError())\n'
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "catan_site.settings", "LOG_LEVEL": "INFO", "LOG_FORMAT": "json"}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in done.stderr.splitlines()]
    assert [(line["logger"], line["level"]) for line in found] == [("celery.app.trace", "error")], found
    assert "games.x[2]" in found[0]["event"]
