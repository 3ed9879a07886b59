"""A WebSocket ping through the real ASGI app, on the in-memory and the Redis channel layers."""

import pytest
from channels.testing import WebsocketCommunicator

from catan_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def ping_round_trip() -> dict:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await communicator.connect()
    assert connected
    try:
        await communicator.send_json_to({"type": "ping", "n": 7})
        return await communicator.receive_json_from(timeout=5)
    finally:
        await communicator.disconnect()


async def test_ping_on_memory_layer(memory_channel_layer):
    reply = await ping_round_trip()
    assert reply == {"type": "pong", "n": 7, "via": "InMemoryChannelLayer"}


async def test_ping_on_redis_layer(redis_channel_layer):
    reply = await ping_round_trip()
    assert reply == {"type": "pong", "n": 7, "via": "PubSubChannelLayer"}


async def test_foreign_origin_is_refused(memory_channel_layer):
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert not connected
