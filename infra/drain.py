"""A web node's drain, for restarts that lose nothing: what the node is doing now, shared by the server's start
(catan_site/serve.py), the health checks and the game sockets.

On SIGTERM the node turns draining: `/healthz/ready` answers 503 (the load balancer sends no one new), and after
`DRAIN_SECONDS` each open game socket of the process is sent a message on its own channel. The socket handles it
after whatever it is doing (a move in flight is finished and answered first), sends its client a last frame and
closes with 1012 (service restart): the table reconnects at once, through the load balancer, to another node.
Then the server stops as uvicorn does, finishing the HTTP requests in flight.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

logger = logging.getLogger(__name__)

# The message a game socket gets on its own channel when its node drains (handled by `server_restarting`).
RESTARTING = {"type": "server.restarting"}
# The close code a draining node's sockets end with (RFC 6455: service restart; the client reconnects at once).
SERVICE_RESTART = 1012

_draining = threading.Event()
_sockets: set[str] = set()  # channel names of this process's open game sockets


def is_draining() -> bool:
    return _draining.is_set()


def begin() -> None:
    if not _draining.is_set():
        logger.info("draining: readiness now fails; sockets are told to move in a moment")
    _draining.set()


def socket_opened(channel_name: str) -> None:
    _sockets.add(channel_name)


def socket_closed(channel_name: str) -> None:
    _sockets.discard(channel_name)


def open_sockets() -> int:
    return len(_sockets)


async def move_sockets(layer: Any, timeout: float) -> int:
    """Tell every open game socket of this process to move, then wait (at most `timeout` seconds) until they have
    closed; returns how many were still open when the wait ended."""
    for name in list(_sockets):
        try:
            await layer.send(name, dict(RESTARTING))
        except Exception:  # the channel layer is down: uvicorn's own shutdown still closes it with 1012
            logger.warning("draining: could not reach socket %s", name, exc_info=True)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while _sockets and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return len(_sockets)
