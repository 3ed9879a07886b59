"""Scale-out: two ASGI server processes sharing only PostgreSQL and Redis. Seats of one game connected to
different processes see each other's moves live."""

from __future__ import annotations

import asyncio
import json

import pytest

import rules
from tests.games.helpers import started_game, state_of
from tests.games.servers import (
    assert_stored_once_and_replayable,
    play_over_sockets,
    session_for,
)


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


@pytest.mark.django_db(transaction=True)
def test_a_game_moved_in_turn_by_two_processes_loses_no_move_and_uses_no_stale_position(two_servers):
    """Seats 0 and 2 on one process, 1 and 3 on the other: each turn changes process, and each process holds the
    position it stored last (games/store/state_cache.py) while the other moves on. Every move is acknowledged, and the
    stored snapshot is the move log replayed: no process moved from a position another had left behind."""


    game, users = started_game(humans=4, bots=0)
    sessions = [session_for(u) for u in users]
    moves = 60

    acked = asyncio.run(play_over_sockets(game.pk, sessions, [two_servers[seat % 2] for seat in range(4)], moves))
    assert_stored_once_and_replayable(game.pk, acked, moves)
