"""WebSockets on a real server: the Origin must be the site's full origin (scheme, host and port), and an
unknown path is closed cleanly instead of failing with a 500."""

from __future__ import annotations

import asyncio

import pytest
import websockets
from websockets.exceptions import InvalidStatus

pytestmark = pytest.mark.django_db(transaction=True)


async def handshake(port: int, path: str, origin: str | None) -> websockets.ClientConnection:
    headers = {"Origin": origin} if origin else {}
    return await websockets.connect(f"ws://127.0.0.1:{port}{path}", additional_headers=headers, open_timeout=10)


def refused_status(port: int, path: str, origin: str | None) -> int:
    async def attempt() -> int:
        try:
            ws = await handshake(port, path, origin)
        except InvalidStatus as refused:
            return refused.response.status_code
        await ws.close()
        return 101

    return asyncio.run(attempt())


def test_only_the_sites_own_origin_may_open_a_socket(serve):
    port = serve()
    assert refused_status(port, "/ws/ping/", f"http://127.0.0.1:{port}") == 101
    assert refused_status(port, "/ws/ping/", "http://127.0.0.1:8000") == 101  # SITE_URL
    for origin in (f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}", "http://127.0.0.1", None):
        assert refused_status(port, "/ws/ping/", origin) == 403, origin


def test_a_trusted_origin_may_open_a_socket(serve):
    port = serve(CSRF_TRUSTED_ORIGINS="https://play.example.org,https://*.catan.example")
    assert refused_status(port, "/ws/ping/", "https://play.example.org") == 101
    assert refused_status(port, "/ws/ping/", "https://eu.catan.example") == 101
    for origin in ("http://play.example.org", "https://play.example.org:8443", "http://eu.catan.example"):
        assert refused_status(port, "/ws/ping/", origin) == 403, origin


def test_an_unknown_socket_path_is_closed_with_4404(serve):
    port = serve()

    async def scenario() -> int | None:
        ws = await handshake(port, "/ws/no/such/path/", f"http://127.0.0.1:{port}")
        await asyncio.wait_for(ws.wait_closed(), timeout=10)
        return ws.close_code

    assert asyncio.run(scenario()) == 4404
