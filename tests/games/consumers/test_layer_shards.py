"""Issue "A fleet": the channel layer sharded over two Redis servers by channels_redis's own sharding. A thread's
`publish_now` goes to the shard channels_redis subscribes the group on (no other road), and live moves reach
sockets whose games' groups live on either shard."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

import rules
from catan_site.env_config import channel_layers_config
from games import services
from games.models import Game
from tests.conftest import _reset_channel_layers
from tests.games.consumers.test_game_socket import connect, receive_type
from tests.games.helpers import started_game
from tests.games.private_services import PrivateRedis

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_shards(settings):
    shards = [PrivateRedis(), PrivateRedis()]
    for shard in shards:
        shard.start()
    urls = f"{shards[0].url},{shards[1].url}"
    config = {"REDIS_URL": shards[0].url, "CHANNEL_LAYER_URLS": urls, "CHANNEL_LAYER_PREFIX": "shard"}
    settings.CHANNEL_LAYERS = channel_layers_config(config)
    _reset_channel_layers()
    yield shards
    _reset_channel_layers()
    for shard in shards:
        shard.stop()


def _subscribed(shard: PrivateRedis) -> set[str]:
    return {name.decode() for name in shard.client().pubsub_channels()}


async def test_publish_now_reaches_each_group_on_its_own_shard(two_shards):
    layer = get_channel_layer()
    assert layer.publishes_now
    channel = await layer.new_channel()
    groups = [f"g{i}" for i in range(16)]
    for group in groups:
        await layer.group_add(group, channel)
    # channels_redis spread the groups' channels over both servers: the test covers both shards.
    on_each = [{c for c in _subscribed(shard) if "__group__" in c} for shard in two_shards]
    assert all(on_each) and len(on_each[0] | on_each[1]) == len(groups)
    for i, group in enumerate(groups):
        await sync_to_async(layer.publish_now)(group, {"type": "probe", "n": i})
    received = sorted([(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in groups])
    assert received == list(range(len(groups)))


def _move(game_id: int, user) -> int:
    game = Game.objects.get(pk=game_id)
    state = rules.load(game.state)
    seat = rules.to_move(state)[0]
    services.move_submit(game_id=game_id, user=user, action=rules.legal_actions(state, seat)[0])
    return Game.objects.get(pk=game_id).seq


async def test_live_moves_reach_sockets_on_both_shards(two_shards):
    games = []
    for _ in range(6):  # six games' groups: some on each shard
        games.append(await sync_to_async(started_game)(humans=1, bots=2))
    sockets = [await connect(game.pk, users[0]) for game, users in games]
    try:
        for (game, users), socket in zip(games, sockets, strict=True):
            assert await sync_to_async(_move)(game.pk, users[0]) == 1
            assert (await receive_type(socket, "update"))["seq"] == 1
        used = [bool({c for c in _subscribed(shard) if "__group__" in c}) for shard in two_shards]
        assert used == [True, True]
    finally:
        for socket in sockets:
            await socket.disconnect()
