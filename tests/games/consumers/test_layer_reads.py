"""The Redis Pub/Sub layer's own paths (infra/realtime/layers.py): a process reads its subscription straight off the
connection, each thread publishes on a connection of its own, and both come back by themselves after Redis
restarts."""

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from redis.asyncio.client import PubSub

import rules
from catan_site.env_config import channel_layers_config
from games import services
from games.live.frames import everyone_group
from games.models import Game
from tests.conftest import _reset_channel_layers
from tests.games.consumers.test_game_socket import connect, receive_type
from tests.games.helpers import started_game
from tests.games.private_services import PrivateRedis

pytestmark = pytest.mark.django_db(transaction=True)


def _move_next(game_id: int, people: list) -> int:
    """A legal move by the person to move (seats 0 and 1 of `started_game`); the game's new `seq`."""
    game = Game.objects.get(pk=game_id)
    state = rules.load(game.state)
    seat = rules.to_move(state)[0]
    action = rules.legal_actions(state, seat)[0]
    return services.move_submit(game_id=game_id, user=people[seat], action=action, expected_seq=game.seq).seq


async def test_the_subscription_is_read_off_the_connection(redis_channel_layer, monkeypatch):
    """Issue "Live play": channels_redis asked redis-py's `PubSub.get_message` for every message (a timeout
    context, the client's retry and command layers: a tenth of a live server's time), and ten times a second
    when idle. The layer reads the subscription's messages off the connection: three moves reach the socket
    without a call of `get_message`."""
    game, (alice, bob) = await sync_to_async(started_game)(humans=2, bots=1)
    b = await connect(game.pk, bob)
    calls = []
    original = PubSub.get_message

    async def counted(self, *args, **kwargs):
        calls.append(1)
        return await original(self, *args, **kwargs)

    try:
        await asyncio.sleep(0.3)  # the subscription's confirmations are read
        monkeypatch.setattr(PubSub, "get_message", counted)
        for _ in range(3):  # Alice's set-up turn, then Bob's first move
            seq = await sync_to_async(_move_next)(game.pk, [alice, bob])
            assert (await receive_type(b, "update"))["seq"] == seq
        await asyncio.sleep(0.3)  # idle: no polling either
        assert calls == []
    finally:
        await b.disconnect()


def test_a_thread_publishes_on_a_connection_of_its_own(redis_channel_layer, monkeypatch):
    """Each publish took a connection from redis-py's pool and gave it back, through the client's command and
    retry layers; a thread now keeps one connection and writes the PUBLISH on it."""
    layer = get_channel_layer()
    taken = []
    original = redis.ConnectionPool.get_connection

    def counted(self, *args, **kwargs):
        taken.append(1)
        return original(self, *args, **kwargs)

    listener = redis.Redis.from_url(redis_channel_layer["default"]["CONFIG"]["hosts"][0]["address"]).pubsub()
    listener.subscribe(f"{layer._prefix}__group__probe")
    listener.get_message(timeout=1)
    monkeypatch.setattr(redis.ConnectionPool, "get_connection", counted)
    for n in range(5):
        layer.publish_now("probe", {"type": "probe", "n": n})
    received = []
    for _ in range(50):
        message = listener.get_message(timeout=0.2)
        if message and message["type"] == "message":
            received.append(layer.deserialize(message["data"])["n"])
        if len(received) == 5:
            break
    listener.close()
    assert received == [0, 1, 2, 3, 4]
    assert taken == []


@pytest.fixture
def private_layer(settings):
    private = PrivateRedis()
    private.start()
    settings.CHANNEL_LAYERS = channel_layers_config({"REDIS_URL": private.url, "CHANNEL_LAYER_PREFIX": "restart"})
    _reset_channel_layers()
    yield private
    _reset_channel_layers()
    private.stop()


async def test_moves_reach_a_socket_again_after_redis_restarts(private_layer):
    """Redis stopped (by PID) and started again on its port: the socket's process subscribes again by itself and
    the thread that publishes connects again, so moves reach the socket again; the one made while Redis was down
    is stored (the client resyncs on the gap in `seq`)."""
    game, (alice, bob) = await sync_to_async(started_game)(humans=2, bots=1)
    people = [alice, bob]
    layer = get_channel_layer()
    b = await connect(game.pk, bob)
    try:
        assert await sync_to_async(_move_next)(game.pk, people) == 1
        assert (await receive_type(b, "update"))["seq"] == 1
        private_layer.stop()
        assert await sync_to_async(_move_next)(game.pk, people) == 2  # stored; its frames are lost (logged)
        private_layer.start()
        for _ in range(40):  # the receiving task tries again every second while Redis is away
            probe = {"type": "game.message", "payload": {"type": "probe"}}
            await sync_to_async(layer.publish_now)(everyone_group(game.pk), probe)
            if not await b.receive_nothing(timeout=0.25):
                break
        else:
            raise AssertionError("the socket's process did not subscribe again")
        assert (await b.receive_json_from(timeout=5))["type"] == "probe"
        assert await sync_to_async(_move_next)(game.pk, people) == 3
        assert (await receive_type(b, "update"))["seq"] == 3
    finally:
        await b.disconnect()
