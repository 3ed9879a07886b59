"""The production web server: uvicorn (uvloop, httptools, websockets) serving the ASGI site.

    python -m catan_site.serve --host 0.0.0.0 --port 8000

`make run`, the Docker image, the multi-process tests and `bench/load.py` all start the site this way. It
measured ~1.4x daphne's moves per second on the load benchmark (docs/PERFORMANCE.md); daphne stays installed
for `manage.py runserver`.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal

import environ
import uvicorn
from django.conf import settings

WS_MAX_BYTES = 16 * 1024
GC_YOUNG = 20_000


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
    uvicorn.run(
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
        log_level=os.environ.get("LOG_LEVEL", "info").lower(),
    )


if __name__ == "__main__":
    main()
