"""A consumer's messages through one queue: its client's frames and the channel layer's, in arrival order.

Channels' `AsyncConsumer` races two reads with `await_many_dispatch`: for every message an `asyncio.wait` over
two tasks and a new task for the next read. A move's frame reaches every seat's socket this way, so that loop
was about a sixth of a live server's time (docs/PERFORMANCE.md). Here the channel layer puts the socket's
messages straight into one queue (`PubSubChannelLayer.open_inbox`), and one task reads the client's frames into
the same queue. Messages are handled one at a time, in order; the reader waits only while CLIENT_AHEAD of the
client's frames are queued and not yet handled, so a client cannot queue more than that (as with Channels' loop,
which read a frame only once the last was handled), and a frame that finds the socket idle costs no extra
wake-up of the reader.

Without the Redis Pub/Sub layer (the in-memory one of a site without Redis) Channels' own loop runs.

Either way the consumer sends through `ClosedAware`: once the connection has closed under it (the client's close
answered by the server while a frame was on its way), a frame has nowhere to go and is dropped. The server
raises for it (uvicorn: a RuntimeError, "after sending 'websocket.close'"), and that exception ended the consumer
before it handled the disconnect queued behind it: the socket never left presence nor its groups.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

from .layers import PubSubChannelLayer

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
logger = logging.getLogger(__name__)


class ClosedAware:
    """The server's `send` for one connection, which drops the frames sent once the connection has closed.

    After the handshake, a frame or a close the server refuses (OSError, as the ASGI spec has it; RuntimeError from
    uvicorn once it has answered the client's close) means the connection is gone: that one and every later one
    are dropped, and the consumer goes on to the disconnect the server has queued. Before the handshake, every
    failure is raised as it is (a consumer that sends before accepting is a bug)."""

    __slots__ = ("send", "accepted", "closed")

    def __init__(self, send: Send) -> None:
        self.send = send
        self.accepted = False
        self.closed = False

    async def __call__(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if not self.accepted:
            await self.send(message)
            self.accepted = message["type"] == "websocket.accept"
            return
        try:
            await self.send(message)
        except (OSError, RuntimeError) as error:
            self.closed = True
            logger.debug("connection closed before a %s could go: %s", message["type"], error)
            return
        if message["type"] == "websocket.close":
            self.closed = True


class OneQueueLoop:
    """Mixin for an `AsyncConsumer` (first in its bases): the same handlers, dispatched from one queue."""

    channel_layer_alias: str
    dispatch: Callable[[dict[str, Any]], Awaitable[None]]

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        layer = get_channel_layer(self.channel_layer_alias)
        if not isinstance(layer, PubSubChannelLayer):
            await super().__call__(scope, receive, ClosedAware(send))  # type: ignore[misc]
            return
        self.scope = scope
        self.channel_layer = layer
        self.base_send = ClosedAware(send)
        inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.channel_name = await layer.open_inbox(inbox)
        backlog = _Backlog()
        reader = asyncio.create_task(_read_client(receive, inbox, backlog))
        try:
            while True:
                message = await inbox.get()
                if type(message) is bytes:
                    await self.dispatch(layer.deserialize(message))
                    continue
                try:
                    await self.dispatch(message)
                finally:
                    backlog.handled()
        except StopConsumer:
            pass
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await layer.close_inbox(self.channel_name)


CLIENT_AHEAD = 4  # the client's frames queued and not yet handled before the reader waits


class _Backlog:
    """How many of the client's frames are queued and not yet handled; the reader waits while there are too many."""

    def __init__(self) -> None:
        self.count = 0
        self.room = asyncio.Event()

    def queued(self) -> None:
        self.count += 1

    def handled(self) -> None:
        self.count -= 1
        if self.count < CLIENT_AHEAD:
            self.room.set()

    async def wait_for_room(self) -> None:
        while self.count >= CLIENT_AHEAD:
            self.room.clear()
            await self.room.wait()


async def _read_client(receive: Receive, inbox: asyncio.Queue[Any], backlog: _Backlog) -> None:
    """The client's frames into `inbox`, never more than CLIENT_AHEAD of them waiting to be handled."""
    while True:
        await backlog.wait_for_room()
        try:
            message = await receive()
        except Exception:  # the server's read failed: end the consumer as if the client had gone
            inbox.put_nowait({"type": "websocket.disconnect", "code": 1011})
            raise
        backlog.queued()
        inbox.put_nowait(message)
        if message["type"] == "websocket.disconnect":
            return
