"""Structured logs through the real processes: a real server and a real Celery worker (with its beat) write one
JSON object per line, and the request id of a socket frame or an HTTP request is carried through the move, the
outbox row and the Celery task that follows it, with the game id. The same run's scrape shows the worker's series
(task durations, bot decisions, beat's last tick, mails sent)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

import rules
from games.models import Game, Notification
from tests.games.helpers import started_game, state_of
from tests.games.private_services import PrivateRedis, SmtpCatcher, Worker, wait_until
from tests.games.servers import free_port, open_socket, post_move, server_env, start_server, stop
from tests.ops.scrape import fetch, samples, value

TOKEN = "scrape-token-for-log-tests"


def lines(path: Path) -> list[dict]:
    """Every line of a process's log, each parsed as JSON (a line that is not JSON fails the test)."""
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                found.append(json.loads(line))
            except ValueError:
                raise AssertionError(f"{path.name} line {number} is not JSON: {line[:300]}") from None
    return found


def events(path: Path, event: str, **fields: object) -> list[dict]:
    return [
        line
        for line in lines(path)
        if line.get("event") == event and all(line.get(k) == v for k, v in fields.items())
    ]


@pytest.fixture
def site(postgres, tmp_path):
    """A real server and a real worker with its beat, on a private broker, logging JSON at INFO into files, their
    metrics in one multiprocess folder, mail going to a private SMTP catcher."""
    broker = PrivateRedis()
    broker.start()
    smtp = SmtpCatcher()
    smtp.start()
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    logging_env = {"LOG_FORMAT": "json", "LOG_LEVEL": "INFO", "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    env = server_env(broker.url)
    env.update(METRICS_TOKEN=TOKEN, CELERY_BROKER_URL=broker.url, **logging_env)
    port = free_port()
    server_log, worker_log = tmp_path / "server.log", tmp_path / "worker.log"
    server = start_server(port, env, log=server_log)
    worker = Worker(broker.url, log=worker_log, EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(smtp.port), **logging_env)
    worker.start()
    try:
        yield {"port": port, "server_log": server_log, "worker_log": worker_log, "smtp": smtp}
    finally:
        worker.kill()
        stop(server)
        smtp.stop()
        broker.stop()


async def _two_moves(port: int, game: Game, user) -> list[dict]:
    """Seat 0's opening settlement and road over a real socket, each frame named by the client ("rid")."""
    ws = await open_socket(port, game.pk, user)
    acks = []
    try:
        for seq, rid in ((0, "rid-settlement"), (1, "rid-road")):
            action = (await asyncio.to_thread(lambda: rules.legal_actions(state_of(game), 0)[0]))
            await ws.send(json.dumps({"type": "move", "action": action, "seq": seq, "key": rid, "rid": rid}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                if frame["type"] in ("ack", "error"):
                    acks.append(frame)
                    break
    finally:
        await ws.close()
    return acks


@pytest.mark.django_db(transaction=True)
def test_a_socket_frames_request_id_reaches_the_move_and_the_bot_task_it_queues(site):
    started = time.time()
    game, users = started_game(humans=1, bots=3)
    acks = asyncio.run(_two_moves(site["port"], game, users[0]))
    assert [a["type"] for a in acks] == ["ack", "ack"], acks

    server_log, worker_log = site["server_log"], site["worker_log"]
    moves = events(server_log, "move_accepted", game_id=game.pk, cause="player")
    assert [(m["seq"], m["request_id"]) for m in moves] == [(1, "rid-settlement"), (2, "rid-road")]
    assert all(m["user_id"] == str(users[0].pk) and m["level"] == "info" for m in moves)
    # The road's commit queued seat 1's bot turn: the worker runs it under the road's request id, and the bot's
    # own move (and the next bot turns it queues) log it too.
    wait_until(lambda: events(worker_log, "move_accepted", game_id=game.pk, cause="bot"), timeout=60)
    task = events(worker_log, "task_started", task="games.bot_play", game_id=game.pk)
    assert task and task[0]["request_id"] == "rid-road"
    bot_moves = events(worker_log, "move_accepted", game_id=game.pk, cause="bot")
    assert bot_moves[0]["request_id"] == "rid-road" and bot_moves[0]["seq"] == 3
    # One line a task's end, not two: Celery's own "received" and "succeeded in" lines are left out at INFO.
    wait_until(lambda: events(worker_log, "task_succeeded", task_id=task[0]["task_id"]), timeout=30)
    assert not [line for line in lines(worker_log) if line.get("logger", "").startswith("celery.app.trace")]
    assert not [line for line in lines(worker_log) if line.get("logger", "").startswith("celery.worker.strategy")]

    # The worker's series reach the server's scrape (one multiprocess folder): the bot's task and decision,
    # and beat's tick (a periodic task the worker ran since the test began).
    def worker_series() -> dict:
        found = samples(fetch(site["port"], TOKEN)[1])
        return found if value(found, "catan_beat_last_tick_timestamp") >= started else {}

    found = wait_until(worker_series, timeout=45) and samples(fetch(site["port"], TOKEN)[1])
    assert value(found, "catan_task_duration_seconds_count", task="games.bot_play") >= 1
    decisions = sum(v for (name, _), v in found.items() if name == "catan_bot_decision_seconds_count")
    assert decisions >= 1
    assert started <= value(found, "catan_beat_last_tick_timestamp") <= time.time()


def _post_move(port: int, game: Game, token: str, seq: int) -> tuple[int, str]:
    action = rules.legal_actions(state_of(game), 0)[0]
    status, headers = post_move(port, game.pk, token, {"action": action, "expected_seq": seq})
    return status, headers.get("x-request-id", "")


@pytest.mark.django_db(transaction=True)
def test_an_http_moves_request_id_reaches_the_outbox_row_and_the_mail_task(site):
    game, users = started_game(humans=3, bots=0, clock=Game.Clock.ASYNC, move_seconds=86400)
    token = Token.objects.create(user=users[0]).key
    before = samples(fetch(site["port"], TOKEN)[1])
    (status, settlement_id), (road_status, road_id) = (_post_move(site["port"], game, token, s) for s in (0, 1))
    assert status == road_status == 200
    assert settlement_id and road_id and settlement_id != road_id

    # The road passed the turn to seat 1: the email row remembers the request that wrote it.
    row = Notification.objects.get(game=game, user=users[1], kind=Notification.Kind.TURN)
    assert row.request_id == road_id
    wait_until(lambda: site["smtp"].to(users[1].email), timeout=60)
    server_log, worker_log = site["server_log"], site["worker_log"]
    finished = events(server_log, "request_finished", request_id=road_id)
    assert finished and finished[0]["code"] == 200 and finished[0]["user_id"] == users[0].pk
    assert events(server_log, "move_accepted", request_id=road_id, game_id=game.pk, seq=2)
    wait_until(lambda: events(worker_log, "notification_send", request_id=road_id, outcome="sent"), timeout=30)
    sent = events(worker_log, "notification_send", request_id=road_id, outcome="sent")[0]
    assert sent["game_id"] == game.pk and sent["kind"] == "turn" and sent["notification_id"] == row.pk

    after = samples(fetch(site["port"], TOKEN)[1])
    added = value(after, "catan_mail_sent_total", kind="turn") - value(before, "catan_mail_sent_total", kind="turn")
    assert added == 1
    assert value(after, "catan_task_duration_seconds_count", task="games.notification_send") >= 1
    # Nothing else in either log failed to parse, and no line carries a traceback's local variables.
    assert not any("locals" in json.dumps(line) for line in lines(server_log) + lines(worker_log))


@pytest.mark.django_db(transaction=True)
def test_behind_haproxy_the_request_id_is_the_balancers_never_the_clients(postgres, redis_url, tmp_path):
    """HAProxy (as `make fleet` configures it) names every request; the node logs and answers with that name, and a
    client's own X-Request-ID is replaced, not trusted."""
    import re
    import tempfile

    from devstack.proxies import HAProxy
    from tests.games.test_pooler import _need_fleet_packages

    _need_fleet_packages()
    env = server_env(redis_url)
    env.update(LOG_FORMAT="json", LOG_LEVEL="INFO", TRUST_REQUEST_ID_HEADER="true")
    port, log = free_port(), tmp_path / "server.log"
    server = start_server(port, env, log=log)
    balancer = HAProxy(Path(tempfile.mkdtemp(prefix="haproxy-")), [port], check_ms=200)
    balancer.start()
    try:
        wait_until(lambda: _get(balancer.port, "/healthz/ready")[0] == 200, timeout=20)
        status, named = _get(balancer.port, "/healthz/live", headers={"X-Request-ID": "forged-by-the-client"})
    finally:
        balancer.stop()
        stop(server)
    assert status == 200
    assert named != "forged-by-the-client" and re.fullmatch(r"[0-9a-f-]{36}", named), named
    finished = events(log, "request_finished", request_id=named)
    assert finished and finished[0]["request"] == "GET /healthz/live"
    assert not events(log, "request_finished", request_id="forged-by-the-client")


def _get(port: int, path: str, headers: dict | None = None) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.headers.get("X-Request-ID", "")
    except OSError:
        return 0, ""
