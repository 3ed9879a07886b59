"""The channel layer: channels_redis's Redis Pub/Sub layer, decoding each message once per process, and
publishing from synchronous code without an event loop.

A move is one group message holding every seat's frame (games/live/frames.py). The stock layer hands the raw
bytes to each subscribed socket's queue and every socket decodes its own copy; here the first socket to read
a message decodes it and the others of the process get the same (read-only) dict. And a group message is
published without the lock that the stock layer holds for it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import threading
from collections import OrderedDict
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection
from channels_redis.utils import _consistent_hash, decode_hosts
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)


class PubSubChannelLayer(RedisPubSubChannelLayer):
    # Recent messages by the identity of their raw bytes; the entry holds the bytes, so the id is not reused
    # while it is remembered. A message reaches its sockets within a few event-loop turns: 256 is plenty.
    RECENT = 256

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._recent: OrderedDict[int, tuple[bytes, Any]] = OrderedDict()
        self._hosts = decode_hosts(kwargs.get("hosts"))
        self._prefix = kwargs.get("prefix", "asgi")
        self._sync_pools: tuple[int, list[redis.ConnectionPool]] | None = None
        self._sync_building = threading.Lock()
        self._sync_local = threading.local()

    def _get_layer(self) -> Any:
        """The stock per-event-loop layer, its shards reading their subscription the lean way (`_LeanShard`)."""
        layer = self._layers.get(asyncio.get_running_loop())
        if layer is None:
            layer = super()._get_layer()
            for shard in layer._shards:
                if type(shard) is RedisSingleShardConnection:
                    shard.__class__ = _LeanShard
        return layer

    @property
    def publishes_now(self) -> bool:
        """Whether `publish_now` works here: always (kept for callers that run on any layer)."""
        return True

    def publish_now(self, group: str, message: dict[str, Any]) -> None:
        """`group_send` from synchronous code (a move's worker thread, a request, a task): one PUBLISH on the calling
        thread's own redis-py connection to the group's shard. asgiref's `async_to_sync` ran an event loop for each
        call, and the socket's own move went back to its event loop to publish: a wake-up and the async client's
        layers per move. With the layer sharded over several Redis servers, the shard is the one channels_redis
        subscribes the group's channel on (its own `_consistent_hash` of the channel's name, as `_get_shard`).
        One attempt, no retries: a Redis that is down costs the caller one refused connection (the caller logs
        it; the move is stored, and clients resync)."""
        channel = f"{self._prefix}__group__{group}"
        connection = self._sync_connection(_consistent_hash(channel, len(self._hosts)))
        try:
            connection.send_packed_command(connection.pack_command("PUBLISH", channel, self.serialize(message)), False)
            connection.read_response()
        except BaseException:
            connection.disconnect()  # a reply may be owed: the next publish starts on a new connection
            raise

    def _sync_connection(self, shard: int) -> redis.Connection:
        """This thread's own connection to `shard` for `publish_now` (made on first use, and again in a forked
        child): a publish neither takes one from a pool and gives it back nor goes through the client's command
        and retry layers, which were most of a move's PUBLISH in the profile (docs/PERFORMANCE.md)."""
        held = getattr(self._sync_local, "held", None)
        if held is None or held[0] != os.getpid():
            held = self._sync_local.held = (os.getpid(), {})
        connection = held[1].get(shard)
        if connection is not None:
            return connection
        pools = self._sync_pools
        if pools is None or pools[0] != os.getpid():
            with self._sync_building:  # one set of pools (the connection settings) per process
                pools = self._sync_pools
                if pools is None or pools[0] != os.getpid():
                    pools = self._sync_pools = (os.getpid(), [self._pool_for(host) for host in self._hosts])
        connection = held[1][shard] = pools[1][shard].make_connection()
        return connection

    @staticmethod
    def _pool_for(host: dict[str, Any]) -> redis.ConnectionPool:
        options = dict(host)
        address = options.pop("address", None)
        options.update(socket_connect_timeout=1, socket_timeout=2, retry=Retry(NoBackoff(), 0))
        if address is not None:
            return redis.ConnectionPool.from_url(address, **options)
        return redis.ConnectionPool(**options)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """PUBLISH without the shard's lock. The stock layer takes one asyncio lock per Redis host for every publish,
        subscribe and unsubscribe of the process: under load each move's publish queued behind all the others
        (a third of a second, flat out). A publish needs no lock: it goes on the shard's pooled client (its own
        connections, not the subscriber's), and concurrent ones take several."""
        layer = self._get_layer()
        channel = layer._get_group_channel_name(group)
        shard = layer._get_shard(channel)
        shard._ensure_redis()
        await shard._redis.publish(channel, self.serialize(message))

    async def open_inbox(self, inbox: asyncio.Queue) -> str:
        """A new channel of this process whose messages (and those of the groups it joins) go into `inbox`, as
        raw bytes for `deserialize`: a consumer that reads its client's frames into the same queue waits on one
        queue (infra/realtime/socket_loop.py), not on the two that Channels' loop races with a new task per message."""
        layer = self._get_layer()
        channel = await layer.new_channel()  # named and subscribed by channels_redis, with a queue of its own
        layer.channels[channel] = inbox  # nothing can have reached that queue: the channel is in no group yet
        return channel

    async def close_inbox(self, channel: str) -> None:
        """The end of `open_inbox`'s channel (its groups are left by the consumer, as with Channels' loop)."""
        layer = self._get_layer()
        if layer.channels.pop(channel, None) is None:
            return
        try:
            await layer._get_shard(channel).unsubscribe(channel)
        except Exception:  # Redis gone: the subscription went with the connection
            logger.warning("could not unsubscribe %s", channel, exc_info=True)

    def deserialize(self, message: bytes) -> Any:
        held = self._recent.get(id(message))
        if held is not None and held[0] is message:
            return held[1]
        decoded = super().deserialize(message)
        self._recent[id(message)] = (message, decoded)
        if len(self._recent) > self.RECENT:
            self._recent.popitem(last=False)
        return decoded


class _LeanShard(RedisSingleShardConnection):
    """channels_redis's connection to one Redis server, whose receiving task reads the subscription's messages
    straight off the connection. The stock task asked redis-py's `PubSub.get_message` with a 0.1 s timeout: per
    message a timeout context, the client's retry and command layers and a message dict, a tenth of a live
    server's time (docs/PERFORMANCE.md), and ten wake-ups a second when idle. Anything but a plain message (a
    subscription's confirmation, a pong) goes through redis-py's own handling; with the connection gone, the stock
    read reconnects (redis-py's retry, which subscribes again to every channel)."""

    async def _do_receiving(self) -> None:
        while True:
            try:
                pubsub = self._pubsub
                if pubsub is None or not pubsub.subscribed:
                    await asyncio.sleep(0.1)
                    continue
                connection = pubsub.connection
                if connection is None or not connection.is_connected:
                    self._receive_message(await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1))
                    continue
                try:
                    response = await connection.read_response(timeout=math.inf)
                except redis.ConnectionError:  # disconnected by redis-py: the next turn reconnects
                    continue
                if type(response) is list and len(response) == 3 and response[0] == b"message":
                    self._receive_message({"channel": response[1], "data": response[2]})
                else:
                    self._receive_message(await pubsub.handle_message(response, ignore_subscribe_messages=True))
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except BaseException:
                logger.exception("Unexpected exception in receive task")
                await asyncio.sleep(1)
