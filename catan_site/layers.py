"""The channel layer: channels_redis's Redis Pub/Sub layer, decoding each message once per process.

A move is one group message holding every seat's frame (games/frames.py). The stock layer hands the raw
bytes to each subscribed socket's queue and every socket decodes its own copy; here the first socket to read
a message decodes it and the others of the process get the same (read-only) dict.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
    # Recent messages by the identity of their raw bytes; the entry holds the bytes, so the id is not reused
    # while it is remembered. A message reaches its sockets within a few event-loop turns: 256 is plenty.
    RECENT = 256

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._recent: OrderedDict[int, tuple[bytes, Any]] = OrderedDict()

    def deserialize(self, message: bytes) -> Any:
        held = self._recent.get(id(message))
        if held is not None and held[0] is message:
            return held[1]
        decoded = super().deserialize(message)
        self._recent[id(message)] = (message, decoded)
        if len(self._recent) > self.RECENT:
            self._recent.popitem(last=False)
        return decoded
