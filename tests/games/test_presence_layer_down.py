"""A socket closing while the channel layer's Redis is down still leaves the table (games/live/presence.py).

The layer and the cache are different servers in a fleet (Redis by role). The layer going down must not make a
closed socket count at the table: its player's email notices would be held, and a live game without a turn clock
would never start their disconnect grace, for as long as the web node lives (its heartbeat renews what it thinks
is open)."""

from __future__ import annotations

import asyncio
import time
import urllib.request

import pytest

from games.live import presence
from tests.games.helpers import started_game
from tests.games.servers import free_port, open_socket, server_env, start_server, stop

pytestmark = pytest.mark.django_db(transaction=True)
HEARTBEAT = 0.5  # the node renews its sockets this often: a socket it still counts would stay at the table


@pytest.fixture
def server_on_own_layer(postgres, redis_url, private_redis):
    """A real server whose cache is the suite's Redis (which this process reads) and whose channel layer is a
    Redis of this test's own."""
    port = free_port()
    env = {
        **server_env(redis_url),
        "CHANNEL_LAYER_URLS": private_redis.url,
        "PRESENCE_HEARTBEAT_SECONDS": str(HEARTBEAT),
        "PRESENCE_TTL_SECONDS": "60",
    }
    process = start_server(port, env)
    yield port
    stop(process)


def test_a_socket_closed_while_the_channel_layer_is_down_leaves_the_table(server_on_own_layer, private_redis):
    game, (alice, _bob) = started_game()

    async def scenario() -> None:
        ws = await open_socket(server_on_own_layer, game.pk, alice)
        assert presence.at_table(game.pk, alice.pk) == (True, None)
        private_redis.stop()  # by PID: the layer's only server is gone
        closed_at = time.time()
        await ws.close()
        deadline = time.monotonic() + 5
        while presence.at_table(game.pk, alice.pk)[0]:
            assert time.monotonic() < deadline, "the closed socket still counts at the table"
            await asyncio.sleep(0.1)
        here, left_at = presence.at_table(game.pk, alice.pk)
        assert not here and left_at >= closed_at - 1
        await asyncio.sleep(4 * HEARTBEAT)  # the heartbeat does not write it back
        assert presence.at_table(game.pk, alice.pk)[0] is False

    asyncio.run(scenario())
    # The node lives on (its liveness: /healthz itself reports the layer down).
    with urllib.request.urlopen(f"http://127.0.0.1:{server_on_own_layer}/healthz/live", timeout=5) as response:
        assert response.status == 200
