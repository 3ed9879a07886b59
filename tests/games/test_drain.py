"""Issue "A fleet": a web node that gets SIGTERM drains. Real server processes on the test database and Redis:
readiness fails at once while liveness holds, the move in flight is finished and answered, each socket gets a
last frame and a close with 1012 (service restart), the player is not counted as gone, and the table reconnects
to another node in sync."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.error
import urllib.request

import pytest

import rules
from games.models import Game, Move
from tests.games.helpers import started_game, state_of
from tests.games.servers import running_servers, server_env, session_for

pytestmark = pytest.mark.django_db(transaction=True)
DRAIN_SECONDS = 1.5


def answer(port: int, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def nodes(postgres, redis_url):
    env = server_env(redis_url)
    env["DRAIN_SECONDS"] = str(DRAIN_SECONDS)
    with running_servers(env, 2) as running:
        yield running


def test_a_draining_node_is_live_not_ready_finishes_the_move_and_closes_its_sockets_with_1012(nodes):
    import websockets

    (first, second), (draining, _other) = nodes
    game, users = started_game(humans=2, bots=2)
    session = session_for(users[0])
    action = rules.legal_actions(state_of(game), 0)[0]
    assert answer(first, "/healthz/ready")[0] == 200
    assert answer(first, "/healthz/live")[1] == {"status": "alive", "draining": False}

    async def scenario() -> tuple[list[dict], int, list[tuple[int, dict]], dict, object]:
        headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{first}"}
        ws = await websockets.connect(f"ws://127.0.0.1:{first}/ws/games/{game.pk}/", additional_headers=headers)
        assert json.loads(await ws.recv())["type"] == "state"
        await ws.send(json.dumps({"type": "move", "action": action, "seq": 0, "key": "drain-1"}))
        draining.send_signal(signal.SIGTERM)  # the move is in flight
        await asyncio.sleep(0.3)
        health = [await asyncio.to_thread(answer, first, path) for path in ("/healthz/ready", "/healthz/live")]
        frames = []
        try:
            async with asyncio.timeout(15):
                async for raw in ws:
                    frames.append(json.loads(raw))
        except websockets.ConnectionClosed:
            pass
        code = ws.close_code
        # The table reconnects to the other node: its first frame is the whole state, the move in it.
        headers["Origin"] = f"http://127.0.0.1:{second}"
        again = await websockets.connect(f"ws://127.0.0.1:{second}/ws/games/{game.pk}/", additional_headers=headers)
        state = json.loads(await again.recv())
        deadline = await asyncio.to_thread(lambda: Game.objects.get(pk=game.pk).deadline)
        await again.close()
        return frames, code, health, state, deadline

    started = time.monotonic()
    frames, code, health, state, deadline = asyncio.run(scenario())
    kinds = [frame["type"] for frame in frames]
    assert health[0] == (503, {"status": "draining"})
    assert health[1] == (200, {"status": "alive", "draining": True})
    assert "ack" in kinds and kinds[-1] == "restarting", kinds
    assert kinds.index("ack") < kinds.index("restarting")
    assert code == 1012
    assert time.monotonic() - started >= DRAIN_SECONDS  # readiness failed before the sockets were moved
    draining.wait(timeout=20)
    assert draining.returncode is not None
    assert Move.objects.filter(game=game).count() >= 1 and Move.objects.filter(game=game, seq=1).count() == 1
    assert state["type"] == "state" and state["seq"] == Game.objects.get(pk=game.pk).seq >= 1
    # The node restarted, not the player: no disconnect grace was started for seat 0's turn.
    assert deadline is None


def test_a_node_that_is_not_draining_answers_ready_with_its_checks(nodes):
    (first, _second), _ = nodes
    status, body = answer(first, "/healthz/ready")
    assert status == 200 and body["status"] == "ready"
    assert body["checks"]["database"]["ok"] and body["checks"]["channel_layer"]["ok"]
