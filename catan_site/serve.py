"""The production web server: uvicorn (uvloop, httptools, websockets) serving the ASGI site.

    python -m catan_site.serve --host 0.0.0.0 --port 8000

`make run`, the Docker image, the multi-process tests and `bench/load.py` all start the site this way. It
measured ~1.4x daphne's moves per second on the load benchmark (docs/PERFORMANCE.md); daphne stays installed
for `manage.py runserver`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import signal
from types import FrameType
from typing import Any

import environ
import uvicorn
from channels.layers import get_channel_layer
from django.conf import settings

from infra import drain

WS_MAX_BYTES = 16 * 1024
GC_YOUNG = 20_000
# After the last socket has moved, the HTTP requests in flight (a move over the REST API) get this long to finish.
GRACEFUL_SHUTDOWN_SECONDS = 10


class DrainingServer(uvicorn.Server):
    """uvicorn's server, whose first SIGTERM drains the node (infra/drain.py) before uvicorn's own shutdown:
    readiness fails at once, and after DRAIN_SECONDS (the load balancer's time to notice) every game socket
    finishes what it is doing, sends a last frame and closes with 1012; then uvicorn stops listening and finishes
    the requests in flight. A second SIGTERM, or SIGINT, stops at once as uvicorn does."""

    def __init__(self, config: uvicorn.Config, drain_seconds: float, sockets_seconds: float) -> None:
        super().__init__(config)
        self.drain_seconds = drain_seconds
        self.sockets_seconds = sockets_seconds
        self.loop: asyncio.AbstractEventLoop | None = None
        self.draining: asyncio.Future[Any] | None = None

    async def serve(self, sockets: Any = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig != signal.SIGTERM or drain.is_draining() or self.loop is None:
            super().handle_exit(sig, frame)
            return
        self._captured_signals.append(sig)  # raised again once stopped, as uvicorn does
        drain.begin()
        self.loop.call_soon_threadsafe(self._start_draining)

    def _start_draining(self) -> None:
        self.draining = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        try:
            await asyncio.sleep(self.drain_seconds)
            left = await drain.move_sockets(get_channel_layer(), self.sockets_seconds)
            if left:
                print(f"[serve] draining: {left} socket(s) had not closed; uvicorn closes them (1012)", flush=True)
        finally:
            self.should_exit = True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the Catan site over HTTP and WebSockets.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--no-access-log", action="store_true", help="do not log every request")
    args = parser.parse_args(argv)
    from catan_site.asgi import application
    from infra import timing

    if timing.PREFIX:  # bench/load.py asks each server for its moves' stage timings with SIGUSR1
        signal.signal(signal.SIGUSR1, timing.dump)
        timing.watch_collections()

    # Everything loaded so far (Django, the apps, the rules' tables) lives as long as the process: moved out of
    # the collector's sight, the full collections that otherwise stall every socket for tens of milliseconds
    # now and then only walk what requests create (docs/PERFORMANCE.md).
    gc.collect()
    gc.freeze()
    # A move allocates some thousands of containers (views, frames, rows) that die with it: with the default
    # threshold (700) the young generation is collected several times per move, and what lives a whole move is
    # promoted and walked again by the older generations. 20,000 lets most of a move's objects die uncollected.
    gc.set_threshold(GC_YOUNG, 20, 20)
    config = uvicorn.Config(
        application,
        host=args.host,
        port=args.port,
        lifespan="off",  # Channels' router speaks HTTP and WebSocket only
        # The client's address (every limit counts per address) comes from X-Forwarded-For only on connections
        # from these proxies; from anyone else the header is ignored.
        proxy_headers=True,
        forwarded_allow_ips=settings.FORWARDED_ALLOW_IPS,
        # No permessage-deflate: a frame is 1-4 KB, and compressing each one for each socket cost a tenth of the
        # server's CPU per move (docs/PERFORMANCE.md); the bytes saved are not worth it.
        ws_per_message_deflate=environ.Env().bool("WS_DEFLATE", default=False),
        # A client's largest legal frame (a move with a trade, a 500-character chat line) is under 2 KB and the game
        # socket refuses frames over 8 KB with an error frame: uvicorn need not read 16 MiB before that check.
        ws_max_size=WS_MAX_BYTES,
        access_log=not args.no_access_log,
        log_config=None,  # uvicorn's lines go through Django's LOGGING: JSON like every other (infra/logs.py)
        log_level=os.environ.get("LOG_LEVEL", "info").lower(),
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )
    env = environ.Env()
    # DRAIN_SECONDS: how long readiness fails before the sockets are moved (the load balancer's check interval
    # and a margin); make run and a single node need none.
    drain_seconds = env.float("DRAIN_SECONDS", default=0.0)
    server = DrainingServer(config, drain_seconds, env.float("DRAIN_SOCKETS_SECONDS", default=5.0))
    server.run()


if __name__ == "__main__":
    main()
