"""A client that closes its socket while the server is still answering it (its own question, or a move's frame on
its way) leaves the table like any other.

The server (uvicorn) answers a client's close at once and refuses every later frame for that connection. A frame
the consumer was about to send then failed with an exception, which ended the consumer before it handled the
disconnect the server had queued behind it: the socket was never counted out of presence (its node's heartbeat
kept it at the table for as long as the node lived: the player's email notices held, no disconnect grace for a
live game) and the server logged an "Exception in ASGI application" for an ordinary goodbye."""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path

import pytest

from games.live import presence
from tests.games.helpers import started_game
from tests.games.servers import free_port, open_socket, server_env, start_server, stop

pytestmark = pytest.mark.django_db(transaction=True)
HEARTBEAT = 0.5  # the node renews its sockets this often: a socket it still counts would stay at the table
ROUNDS = 20


@pytest.fixture
def logged_server(postgres, redis_url):
    """A real server with a quick presence heartbeat, its log kept in a file of the test's own."""
    port = free_port()
    log = Path(tempfile.mkdtemp(prefix="closed-mid-answer-")) / "server.log"
    env = {**server_env(redis_url), "PRESENCE_HEARTBEAT_SECONDS": str(HEARTBEAT), "PRESENCE_TTL_SECONDS": "60"}
    process = start_server(port, env, log)
    yield port, log
    stop(process)


def test_a_socket_closed_while_its_answer_is_on_the_way_leaves_the_table(logged_server):
    port, log = logged_server
    game, (alice, _bob) = started_game()

    async def scenario() -> None:
        for _ in range(ROUNDS):
            ws = await open_socket(port, game.pk, alice)
            assert presence.at_table(game.pk, alice.pk)[0] is True
            # The state frame needs a database read: the close reaches the server before the answer is ready.
            await ws.send(json.dumps({"type": "sync"}))
            await ws.close()
            deadline = time.monotonic() + 5
            while presence.at_table(game.pk, alice.pk)[0]:
                assert time.monotonic() < deadline, "the closed socket still counts at the table"
                await asyncio.sleep(0.05)
        await asyncio.sleep(4 * HEARTBEAT)  # the heartbeat does not write any of them back
        assert presence.at_table(game.pk, alice.pk)[0] is False

    asyncio.run(scenario())
    failures = [line for line in log.read_text(errors="replace").splitlines() if "Exception in ASGI" in line]
    assert failures == [], failures[0][:2000]
