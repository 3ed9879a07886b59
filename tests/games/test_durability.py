"""Durability: SIGKILL the server in the middle of play. Every acknowledged move is stored, none twice,
clients reconnect and resync, and every game's log replays from its seed to its stored state."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import uuid

import pytest

import rules
from games.models import Game, Move
from tests.games.helpers import started_game
from tests.games.servers import free_port, server_env, session_for, start_server, stop

GAMES = 4
SEATS = 3


async def seat_client(port, game_id, session, acked: list, stop_event: asyncio.Event, rng: random.Random):
    """Play random legal moves as fast as allowed; remember every acknowledged idempotency key."""
    import websockets

    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/", additional_headers=headers) as ws:
            seq, legal, sent = -1, [], {}
            while not stop_event.is_set():
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.3))
                except TimeoutError:
                    frame = {"type": "idle"}
                if frame["type"] in ("state", "update") and frame["seq"] >= seq:
                    seq, legal = frame["seq"], [a for a in frame.get("legal", []) if a["type"] != "offer_trade"]
                elif frame["type"] == "ack":
                    acked.append((game_id, frame["key"]))
                if legal:
                    key = uuid.uuid4().hex
                    sent[key] = seq
                    await ws.send(json.dumps({"type": "move", "action": rng.choice(legal), "seq": seq, "key": key}))
                    legal = []
    except (OSError, websockets.ConnectionClosed):
        return  # the server died under us


async def resync(port, game_id, session) -> dict:
    import websockets

    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/", additional_headers=headers) as ws:
        return json.loads(await asyncio.wait_for(ws.recv(), timeout=10))


@pytest.mark.django_db(transaction=True)
def test_a_killed_server_loses_no_acknowledged_move_and_applies_none_twice(postgres, redis_url):
    env = server_env(redis_url)
    port = free_port()
    games = [started_game(humans=SEATS, bots=0) for _ in range(GAMES)]
    sessions = {g.pk: [session_for(u) for u in users] for g, users in games}
    server = start_server(port, env)
    acked: list[tuple[int, str]] = []

    async def play_then_kill() -> None:
        stop_event = asyncio.Event()
        rng = random.Random(3)
        clients = [
            asyncio.create_task(seat_client(port, g.pk, sessions[g.pk][s], acked, stop_event, rng))
            for g, _ in games
            for s in range(SEATS)
        ]
        await asyncio.sleep(3)
        server.send_signal(signal.SIGKILL)  # in the middle of play, no goodbye
        await asyncio.sleep(0.5)
        stop_event.set()
        await asyncio.gather(*clients, return_exceptions=True)

    try:
        asyncio.run(play_then_kill())
        server.wait(timeout=10)
        assert len(acked) > 20, "too little play before the kill"
        # Every acknowledged move is in the database, exactly once.
        stored = set(Move.objects.values_list("game_id", "idempotency_key"))
        assert set(acked) <= stored
        keys = list(Move.objects.exclude(idempotency_key=None).values_list("game_id", "idempotency_key"))
        assert len(keys) == len(set(keys))
        # A restarted server: clients reconnect and get the current position.
        server = start_server(port, env)
        for game, _ in games:
            frame = asyncio.run(resync(port, game.pk, sessions[game.pk][0]))
            assert frame["type"] == "state" and frame["seq"] == Game.objects.get(pk=game.pk).seq
        # Replaying each log from the seed gives the stored state.
        for game, _ in games:
            row = Game.objects.get(pk=game.pk)
            moves = list(Move.objects.filter(game=row).order_by("seq"))
            assert [m.seq for m in moves] == list(range(1, row.seq + 1))
            state = rules.new_game(scenario=row.scenario, players=row.seat_count, seed=row.seed, options=row.options)
            for move in moves:
                rules.apply(state, move.seat, move.action)
            assert rules.dump(state) == row.state
    finally:
        stop(server)
