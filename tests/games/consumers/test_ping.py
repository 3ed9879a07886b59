"""A WebSocket ping through the real ASGI app, on the in-memory and the Redis channel layers."""

import pytest
from channels.testing import WebsocketCommunicator

from catan_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def ping_round_trip() -> dict:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")])
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


async def test_malformed_or_deeply_nested_frames_get_an_answer_not_a_dropped_socket(memory_channel_layer):
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await communicator.connect()
    assert connected
    try:
        for text in ("[" * 100_000 + "]" * 100_000, "{not json", "[1, 2]"):
            await communicator.send_to(text_data=text)
            assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
        for binary in (b"binary", b'{"type": "ping", "n": 2}'):  # a binary frame dropped the socket
            await communicator.send_to(bytes_data=binary)
            assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
        await communicator.send_json_to({"type": "ping", "n": 1})
        assert (await communicator.receive_json_from(timeout=5))["type"] == "pong"
    finally:
        await communicator.disconnect()
