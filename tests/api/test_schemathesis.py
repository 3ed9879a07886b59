"""An outside fuzzer against the site as production runs it: schemathesis reads /api/schema/ and sends thousands of
valid and invalid requests to `python -m catan_site.serve` (DEBUG off, PostgreSQL, Redis), as a player, as a
superuser and anonymously, with every check it has (`--checks all`: no 5xx, every status, content type, header
and body as the schema says, valid requests accepted, invalid ones refused, ...). Any failure fails the test and
prints schemathesis' report with a curl command to reproduce it.

The schema is the contract: a client generated from it must work. Per-user rate limits are raised (their env
variables) so that the fuzzer tests the logic behind them rather than the limits. schemathesis.toml (the repo's
root) names the few operations whose 400s come from rules that judge fields together.

The moderation API (/api/moderation/) is fuzzed too, as a member of the Moderators group (and refused to the
others: every one of its operations answers 401 or 403 to them, as the schema says).
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from moderation.services import moderators_group
from tests.factories import UserFactory
from tests.games.helpers import started_game
from tests.games.servers import ROOT, free_port, server_env, start_server, stop

pytestmark = pytest.mark.django_db(transaction=True)

# Bounded so that the three runs take about a minute on CI's two cores; the CLI by hand takes -n 40 (docs/API.md).
EXAMPLES = 3
SEED = 30
UNLIMITED = {
    name: "1000000"
    for name in (
        "RATE_LIMIT_MOVES",
        "RATE_LIMIT_CHAT",
        "RATE_LIMIT_INVITES",
        "RATE_LIMIT_REPORTS_PER_HOUR",
        "RATE_LIMIT_GAMES_PER_HOUR",
        "MAX_GAMES_PER_USER",
        "MAX_WAITING_GAMES_PER_USER",
    )
}


@pytest.fixture
def api_server(postgres, redis_url):
    port = free_port()
    process = start_server(port, {**server_env(redis_url), **UNLIMITED})
    yield port
    stop(process)


@pytest.fixture
def credentials() -> dict[str, list[str]]:
    """Headers per role. The player sits in a game in progress, so the fuzzer reaches a real game and its moves."""
    _game, (player, _other) = started_game()
    superuser = UserFactory(is_staff=True, is_superuser=True)
    moderator = UserFactory()
    moderator.groups.add(moderators_group())
    return {
        "player": ["-H", f"Authorization: Token {Token.objects.create(user=player).key}"],
        "moderator": ["-H", f"Authorization: Token {Token.objects.create(user=moderator).key}"],
        "superuser": ["-H", f"Authorization: Token {Token.objects.create(user=superuser).key}"],
        "anonymous": [],
    }


def schemathesis(port: int, headers: list[str], output: Path, scope: list[str]) -> subprocess.Popen:
    """Start one fuzzer run over the operations and phases `scope` selects, its report written to `output`."""
    st = Path(sys.executable).with_name("st")
    command = [
        str(st),
        "--no-color",
        "--config-file",
        str(ROOT / "schemathesis.toml"),
        "run",
        f"http://127.0.0.1:{port}/api/schema/?format=json",
        *headers,
        "--checks",
        "all",
        "-n",
        str(EXAMPLES),
        "--seed",
        str(SEED),
        # One worker (thread) per run: with two, schemathesis draws in two threads, and hypothesis describes a
        # strategy by parsing its lambda's source, which on CPython 3.11.7 can fail when another thread parses too
        # (gh-106905: CI failed once on it in the moderator's run). Runs in processes of their own share nothing.
        "--workers",
        "1",
        "--continue-on-failure",
        "--request-timeout",
        "10",
        *scope,
    ]
    with open(output, "w") as sink:
        return subprocess.Popen(command, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT, text=True)


# What each role fuzzes. The coverage phase (every boundary and every invalid value of every field, whatever `-n`
# says) is most of a run's time, so each operation gets it once, from the role that reaches its logic: the player
# every operation but the moderation API, the moderator the moderation API. The anonymous run sends the generated
# and stateful requests to every operation (each must answer 401 or what the schema says for anonymous access).
ROLES = {
    "player": ["--exclude-path-regex", "^/api/moderation/"],
    "moderator": ["--include-path-regex", "^/api/moderation/"],
    "anonymous": ["--phases", "examples,fuzzing,stateful"],
}


# A superuser's run (every operation allowed, as a moderator's) and every role's coverage of every operation are
# left to the CLI by hand (bench/fuzz_api.sh): the suite keeps CI within its time. The three runs go at once, each
# in its own process, against one server.
def test_schemathesis_finds_no_failure(api_server, credentials, tmp_path):
    runs = {
        role: schemathesis(api_server, credentials[role], tmp_path / f"{role}.txt", scope)
        for role, scope in ROLES.items()
    }
    try:
        codes = {role: run.wait(timeout=300) for role, run in runs.items()}
    finally:
        for run in runs.values():
            if run.poll() is None:
                run.kill()
                run.wait()
    for role in ROLES:
        report = (tmp_path / f"{role}.txt").read_text()
        assert "generated" in report, f"{role}: {report[-3000:]}"  # it ran: a schema it could not load is a failure too
        assert codes[role] == 0, f"{role}: {report[-12000:]}"


def test_the_schema_answers_clients_that_load_it_at_once(api_server):
    """Three API clients starting together each load /api/schema/: every one gets it (it was a 500 for some: the
    schema generator is not safe to run in two threads at once)."""
    url = f"http://127.0.0.1:{api_server}/api/schema/?format=json"

    def load(_: int) -> int:
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                json.load(response)
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    with ThreadPoolExecutor(max_workers=6) as pool:
        statuses = list(pool.map(load, range(12)))
    assert statuses == [200] * 12, statuses
