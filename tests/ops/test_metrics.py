"""/metrics through a real server process: refused without the bearer token, and after live and email moves the
scrape counts exactly what was played."""

from __future__ import annotations

import asyncio
import json

import pytest
from rest_framework.authtoken.models import Token

import rules
from games.models import Game
from tests.games.helpers import started_game, state_of
from tests.games.private_services import wait_until
from tests.games.servers import free_port, post_move, server_env, session_for, start_server, stop
from tests.ops.scrape import fetch, samples, value

TOKEN = "scrape-token-for-tests"


@pytest.fixture
def metrics_server(postgres, redis_url, tmp_path):
    """A real server with METRICS_TOKEN set and a multiprocess folder of this test's own; its port."""
    env = server_env(redis_url)
    env.update(METRICS_TOKEN=TOKEN, PROMETHEUS_MULTIPROC_DIR=str(tmp_path))
    port = free_port()
    process = start_server(port, env)
    yield port
    stop(process)


def test_without_a_token_configured_there_is_no_metrics_page(client, settings, db):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer anything").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_scrape_without_the_right_token_is_refused(metrics_server):
    for token in (None, "wrong", ""):
        status, body = fetch(metrics_server, token)
        assert status == 401, token
        assert json.loads(body)["error"]["code"] == "unauthorized"
    status, body = fetch(metrics_server, TOKEN)
    assert status == 200
    assert "catan_games_active" in body and "catan_http_requests_total" in body


async def _live_moves(port: int, game_id: int, session: str, action: dict) -> list[dict]:
    """One accepted move, then the same seq again (refused: stale), over a real socket."""
    import websockets  # a dev dependency, only for tests that drive a real server

    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/", additional_headers=headers) as ws:
        assert json.loads(await ws.recv())["type"] == "state"
        answers = []
        for key in ("m-1", "m-2"):
            await ws.send(json.dumps({"type": "move", "action": action, "seq": 0, "key": key}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                if frame["type"] in ("ack", "error"):
                    answers.append(frame)
                    break
        open_now = samples((await asyncio.to_thread(fetch, port, TOKEN))[1])
        answers.append({"type": "scrape", "sockets_open": value(open_now, "catan_sockets_open")})
        return answers


def _post_move(port: int, game: Game, user, body: dict) -> int:
    return post_move(port, game.pk, Token.objects.create(user=user).key, body)[0]


@pytest.mark.django_db(transaction=True)
def test_a_scrape_after_live_and_email_moves_counts_them(metrics_server):
    port = metrics_server
    live, live_users = started_game(humans=3, bots=0)
    email, email_users = started_game(humans=3, bots=0, clock=Game.Clock.ASYNC, move_seconds=86400)
    before = samples(fetch(port, TOKEN)[1])

    answers = asyncio.run(
        _live_moves(port, live.pk, session_for(live_users[0]), rules.legal_actions(state_of(live), 0)[0])
    )
    assert [a["type"] for a in answers] == ["ack", "error", "scrape"]
    assert answers[2]["sockets_open"] == 1
    assert answers[1]["code"] == "stale"
    email_action = rules.legal_actions(state_of(email), 0)[0]
    assert _post_move(port, email, email_users[0], {"action": email_action, "expected_seq": 0}) == 200

    after = samples(fetch(port, TOKEN)[1])
    def added(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert added("catan_moves_total", result="accepted") == 2
    assert added("catan_moves_total", result="stale") == 1
    for stage in ("lock", "apply", "commit", "fan-out", "total"):
        assert added("catan_move_duration_seconds_count", stage=stage) == 2, stage
        assert value(after, "catan_move_duration_seconds_sum", stage=stage) > 0, stage
    # The two games in progress, by clock; the socket, closed, no longer counted.
    assert value(after, "catan_games_active", clock=Game.Clock.LIVE) == 1
    assert value(after, "catan_games_active", clock=Game.Clock.ASYNC) == 1
    wait_until(lambda: value(samples(fetch(port, TOKEN)[1]), "catan_sockets_open") == 0, timeout=20, step=0.5)
    # HTTP by route template, never by raw path.
    route = "/api/games/<int:game_id>/moves/"
    assert value(after, "catan_http_requests_total", route=route, status="200") == 1
    assert not any(str(live.pk) in dict(labels).get("route", "") for _name, labels in after)
    # The queues are read from the broker.
    assert ("catan_celery_queue_length", (("queue", "celery"),)) in after
