"""The game socket's one-queue loop (infra/realtime/socket_loop.py) on the Redis Pub/Sub layer: the same handlers as
Channels' loop, in order, one at a time, and nothing left subscribed when a socket closes."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels import consumer as channels_consumer
from channels.layers import get_channel_layer

import rules
from games.live.frames import everyone_group
from games.models import Game
from tests.games.consumers.test_game_socket import connect, receive_type
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game_and_users(redis_channel_layer):
    return started_game(humans=2, bots=1)


def _refuse(monkeypatch, owner, name: str, what: str) -> None:
    """`owner.name` fails the test if called."""

    def refused(*args, **kwargs):
        raise AssertionError(what)

    monkeypatch.setattr(owner, name, refused)


async def test_game_sockets_do_not_race_two_reads_per_message(game_and_users, monkeypatch):
    """Issue "Live play": Channels' loop waits on the client and the layer with `asyncio.wait` over two tasks and
    a new task per message, about a sixth of a live server's time. The game socket reads one queue instead: a
    whole move, its ack and every seat's update, goes by without Channels' loop."""
    game, (alice, bob) = game_and_users
    _refuse(monkeypatch, channels_consumer, "await_many_dispatch", "the game socket ran Channels' await_many_dispatch")
    a, b = await connect(game.pk, alice), await connect(game.pk, bob)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        await a.send_json_to({"type": "move", "action": rules.legal_actions(state, 0)[0], "seq": 0, "key": "k1"})
        assert (await receive_type(a, "ack"))["seq"] == 1
        assert (await receive_type(a, "update"))["seq"] == 1
        assert (await receive_type(b, "update"))["seq"] == 1
    finally:
        await a.disconnect()
        await b.disconnect()


async def test_frames_sent_at_once_are_answered_one_at_a_time_in_order(game_and_users):
    """Three frames written at once: each is handled only after the one before it, so their answers come in the
    same order, and the mover's ack comes before the update of its own move (as with Channels' loop). The update
    comes back through Redis, so it may come after the state frame, which holds the move too."""
    game, (alice, _bob) = game_and_users
    a = await connect(game.pk, alice)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        await a.send_json_to({"type": "ping"})
        await a.send_json_to({"type": "move", "action": rules.legal_actions(state, 0)[0], "seq": 0, "key": "k1"})
        await a.send_json_to({"type": "sync"})
        kinds = [(await a.receive_json_from(timeout=5))["type"] for _ in range(4)]
        answers = [kind for kind in kinds if kind != "update"]
        assert answers == ["pong", "ack", "state"] and kinds.index("ack") < kinds.index("update"), kinds
    finally:
        await a.disconnect()


async def test_a_closed_socket_leaves_nothing_subscribed(game_and_users):
    """A socket's channel and its game's group are dropped, in the process and on Redis, when it closes: a server
    that has served many visits holds no queue and no subscription for them."""
    game, (alice, _bob) = game_and_users
    layer = get_channel_layer()
    loop_layer = layer._get_layer()
    before = set(loop_layer.channels)
    a, spectator = await connect(game.pk, alice), await connect(game.pk)
    opened = set(loop_layer.channels) - before
    assert len(opened) == 2
    group_channel = loop_layer._get_group_channel_name(everyone_group(game.pk))
    assert group_channel in loop_layer.groups
    await a.disconnect()
    await spectator.disconnect()
    for _ in range(50):
        if not (set(loop_layer.channels) & opened) and group_channel not in loop_layer.groups:
            break
        await asyncio.sleep(0.05)
    assert not set(loop_layer.channels) & opened
    assert group_channel not in loop_layer.groups
    shard = loop_layer._get_shard(group_channel)
    subscribed = shard._subscribed_to
    assert group_channel not in subscribed and not opened & subscribed


async def test_a_move_made_from_synchronous_code_is_published_without_an_event_loop(game_and_users, monkeypatch):
    """A move stored by a request, a task or a socket's worker thread is published from that thread
    (`PubSubChannelLayer.publish_now`): asgiref's `async_to_sync` ran an event loop for each broadcast, and a socket's
    own move went back to its loop to publish."""
    from games import outbox, services
    _refuse(monkeypatch, outbox, "async_to_sync", "a broadcast went through async_to_sync")
    game, (alice, bob) = game_and_users
    b = await connect(game.pk, bob)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        action = rules.legal_actions(state, 0)[0]
        await sync_to_async(services.move_submit)(game_id=game.pk, user=alice, action=action, expected_seq=0)
        assert (await receive_type(b, "update"))["seq"] == 1
    finally:
        await b.disconnect()


async def test_a_client_cannot_queue_more_than_a_few_frames_while_one_is_handled(game_and_users, monkeypatch):
    """While a move is being stored, the socket reads at most CLIENT_AHEAD of the client's frames ahead: the rest
    stay unread (the server's read buffer, then TCP's window, hold the client back), and all are answered in
    order once the move is done."""
    import threading

    from games import services
    from infra.realtime.socket_loop import CLIENT_AHEAD

    game, (alice, _bob) = game_and_users
    release = threading.Event()
    real = services.move_submit

    def slow(**kwargs):
        release.wait(10)
        return real(**kwargs)

    monkeypatch.setattr(services, "move_submit", slow)
    a = await connect(game.pk, alice)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        await a.send_json_to({"type": "move", "action": rules.legal_actions(state, 0)[0], "seq": 0, "key": "k1"})
        for n in range(10):
            await a.send_json_to({"type": "ping", "n": n})
        await asyncio.sleep(0.3)
        assert a.input_queue.qsize() == 10 - (CLIENT_AHEAD - 1)  # the move and CLIENT_AHEAD - 1 pings were read
        release.set()
        kinds = [(await a.receive_json_from(timeout=5))["type"] for _ in range(12)]
        assert [kind for kind in kinds if kind != "update"] == ["ack"] + ["pong"] * 10, kinds
    finally:
        release.set()
        await a.disconnect()


async def test_a_game_socket_writes_its_frames_without_channels_send_layers(game_and_users, monkeypatch):
    """The mover's ack (and every other frame the socket writes itself) goes to the server's send in one call, not
    through Channels' `send_json`, `send` and `send` again: a call each per frame."""
    from channels.generic.websocket import AsyncWebsocketConsumer
    _refuse(monkeypatch, AsyncWebsocketConsumer, "send", "a frame went through Channels' AsyncWebsocketConsumer.send")
    game, (alice, _bob) = game_and_users
    a = await connect(game.pk, alice)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        await a.send_json_to({"type": "move", "action": rules.legal_actions(state, 0)[0], "seq": 0, "key": "k1"})
        ack = await receive_type(a, "ack")
        assert ack == {"type": "ack", "seq": 1, "key": "k1", "duplicate": False}
        await a.send_json_to({"type": "nonsense"})
        assert (await receive_type(a, "error"))["code"] == "unknown_type"
    finally:
        await a.disconnect()
