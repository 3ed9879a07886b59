"""The channel layer: channels_redis's Redis Pub/Sub layer, decoding each message once per process, and
publishing from synchronous code without an event loop.

A move is one group message holding every seat's frame (games/frames.py). The stock layer hands the raw
bytes to each subscribed socket's queue and every socket decodes its own copy; here the first socket to read
a message decodes it and the others of the process get the same (read-only) dict. And a group message is
published without the lock that the stock layer holds for it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import decode_hosts
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
        self._sync_client: redis.Redis | None = None
        self._sync_building = threading.Lock()

    @property
    def publishes_now(self) -> bool:
        """Whether `publish_now` works: with one Redis server (several would need the layer's sharding)."""
        return len(self._hosts) == 1

    def publish_now(self, group: str, message: dict[str, Any]) -> None:
        """`group_send` from synchronous code (a move's worker thread, a request, a task): one PUBLISH on a redis-py
        client of the process, in the calling thread. asgiref's `async_to_sync` ran an event loop for each call,
        and the socket's own move went back to its event loop to publish: a wake-up and the async client's
        layers per move. One attempt, no retries: a Redis that is down costs the caller one refused connection
        (the caller logs it; the move is stored, and clients resync)."""
        client = self._sync_client
        if client is None:
            with self._sync_building:  # one client, one pool, however many threads publish first at once
                client = self._sync_client
                if client is None:
                    options = dict(self._hosts[0])
                    address = options.pop("address", None)
                    options.update(socket_connect_timeout=1, socket_timeout=2, retry=Retry(NoBackoff(), 0))
                    if address is not None:
                        client = redis.Redis.from_url(address, **options)
                    else:
                        client = redis.Redis(**options)
                    self._sync_client = client
        client.publish(f"{self._prefix}__group__{group}", self.serialize(message))

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
        queue (catan_site/socket_loop.py), not on the two that Channels' loop races with a new task per message."""
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
