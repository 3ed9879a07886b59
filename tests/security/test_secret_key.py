"""Without DEBUG the site refuses to start on no secret key, or on a published one, with a clear message."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("command", [["manage.py", "check"], ["-m", "catan_site.serve", "--host", "256.0.0.1"]])
def test_no_secret_key_without_debug_stops_the_start_with_a_clear_message(command):
    result = run(command, DEBUG="false")
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert "SECRET_KEY is not set" in last and "DEBUG" in last, result.stderr[-2000:]


def test_the_placeholder_of_env_example_without_debug_is_refused():
    result = run(["manage.py", "check"], DEBUG="false", SECRET_KEY="change-me")
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr.strip().splitlines()[-1]


def test_check_deploy_flags_the_development_key_passed_on_to_production():
    result = run(["manage.py", "check", "--deploy"], DEBUG="false", SECRET_KEY=settings.DEVELOPMENT_KEY)
    assert "security.W009" in result.stdout + result.stderr


def test_development_runs_without_a_key():
    result = run(["manage.py", "check"], DEBUG="true")
    assert result.returncode == 0, result.stderr[-2000:]


def test_check_deploy_is_clean_with_the_production_settings_of_deploy_md():
    doc = (ROOT / "docs" / "DEPLOY.md").read_text()
    block = doc.split("Production settings, for example:", 1)[1].split("```")[1]
    production = dict(line.strip().split("=", 1) for line in block.strip().splitlines())
    production["SECRET_KEY"] = "k3y-" + "".join(chr(ord("a") + i % 26) + str(i) for i in range(30))
    assert production["DEBUG"] == "false" and "CSRF_TRUSTED_ORIGINS" in production
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production)
    assert result.returncode == 0, result.stdout + result.stderr


def makefile_key() -> str:
    """The key `make run` passes when SECRET_KEY is not set (Makefile: SITE_ENV)."""
    found = re.search(r'SECRET_KEY="\$\$\{SECRET_KEY:-([^}"]+)\}"', (ROOT / "Makefile").read_text())
    assert found, "the Makefile passes no default SECRET_KEY"
    return found.group(1)


def test_the_makefile_s_development_key_is_flagged_by_check_deploy_if_it_reaches_production():
    key = makefile_key()
    assert key.startswith("django-insecure-")
    result = run(["manage.py", "check", "--deploy"], DEBUG="false", SECRET_KEY=key)
    assert "security.W009" in result.stdout + result.stderr, result.stdout + result.stderr
