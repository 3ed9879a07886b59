"""Scale-out: two ASGI server processes sharing only PostgreSQL and Redis. Seats of one game connected to
different processes see each other's moves live."""

from __future__ import annotations

import asyncio
import json

import pytest

import rules
from tests.games.helpers import started_game, state_of
from tests.games.servers import free_port, server_env, session_for, start_server, stop


@pytest.fixture
def two_servers(postgres, redis_url):
    env = server_env(redis_url)
    ports = [free_port(), free_port()]
    servers = []
    try:
        for port in ports:
            servers.append(start_server(port, env))
        yield ports
    finally:
        for server in servers:
            stop(server)


@pytest.mark.django_db(transaction=True)
def test_seats_on_two_server_processes_see_each_others_moves(two_servers):
    import websockets

    game, users = started_game(humans=3, bots=0)
    sessions = [session_for(u) for u in users[:2]]
    action = rules.legal_actions(state_of(game), 0)[0]

    async def scenario() -> tuple[dict, dict]:
        sockets = []
        for seat, port in zip((0, 1), two_servers, strict=True):
            headers = {"Cookie": f"sessionid={sessions[seat]}", "Origin": f"http://127.0.0.1:{port}"}
            ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game.pk}/", additional_headers=headers)
            assert json.loads(await ws.recv())["type"] == "state"
            sockets.append(ws)
        alice, bob = sockets
        await alice.send(json.dumps({"type": "move", "action": action, "seq": 0, "key": "scale-1"}))

        async def next_update(ws) -> dict:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                if frame["type"] == "update":
                    return frame

        results = await asyncio.gather(next_update(alice), next_update(bob))
        for ws in sockets:
            await ws.close()
        return results

    seen_by_alice, seen_by_bob = asyncio.run(scenario())
    assert seen_by_alice["seq"] == seen_by_bob["seq"] == 1
    assert seen_by_bob["view"]["viewer"] == 1
    assert seen_by_bob["view"]["pieces"]["settlements"] == [{"vertex": action["vertex"], "seat": 0}]
