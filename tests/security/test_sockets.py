"""WebSockets on a real server: the Origin must be the site's full origin (scheme, host and port), and an
unknown path is closed cleanly instead of failing with a 500; a report whose reason PostgreSQL cannot store is
refused with an error frame, never a dropped socket; a frame over uvicorn's limit closes 1009, one over the game
socket's own limit gets an error frame."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from catan_site.serve import WS_MAX_BYTES
from games import services
from moderation.models import Report
from tests.games.helpers import started_game
from tests.games.servers import open_socket

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


@pytest.mark.parametrize("reason", ["bad\u0000x", "bad\ud800x", "r" * 501])
def test_a_report_with_text_postgresql_cannot_store_is_refused_and_the_socket_stays_open(serve, reason):
    """A report's reason goes to PostgreSQL: NUL or a lone surrogate is refused with `bad_text`, an overlong reason
    with `reason_too_long`, each as an error frame on a socket that stays usable; nothing is stored."""
    port = serve()
    game, (alice, bob) = started_game()
    message = services.chat_post(game_id=game.pk, user=bob, text="hello")

    async def scenario() -> list[dict]:
        ws = await open_socket(port, game.pk, alice)
        frame = json.dumps({"type": "report", "message_id": message.pk, "reason": reason})
        assert len(frame.encode("utf-8", "surrogatepass")) < 8192
        await ws.send(frame)
        await ws.send(json.dumps({"type": "ping"}))
        answers = [json.loads(await asyncio.wait_for(ws.recv(), timeout=10)) for _ in range(2)]
        await ws.close()
        return answers

    error, pong = asyncio.run(scenario())
    expected = "reason_too_long" if len(reason) > 500 else "bad_text"
    assert error["type"] == "error" and error["code"] == expected and error["message"]
    assert pong["type"] == "pong"
    assert not Report.objects.exists()


def test_a_frame_over_the_server_s_limit_closes_1009_and_one_under_it_gets_the_app_s_error(serve):
    """uvicorn (catan_site.serve) reads at most WS_MAX_BYTES of a frame: past it the socket closes with 1009 (message
    too big) before the app reads it; a 12 KB frame reaches the game socket, which refuses anything over 8 KB
    with a `frame_too_large` error frame and stays usable."""
    port = serve()
    game, (alice, _bob) = started_game()

    async def scenario() -> tuple[list[dict], int | None]:
        ws = await open_socket(port, game.pk, alice)
        await ws.send(json.dumps({"type": "chat", "text": "y" * 12_000}))
        await ws.send(json.dumps({"type": "ping"}))
        answers = [json.loads(await asyncio.wait_for(ws.recv(), timeout=10)) for _ in range(2)]
        await ws.send(json.dumps({"type": "chat", "text": "y" * (WS_MAX_BYTES + 1000)}))
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), timeout=10)
        return answers, ws.close_code

    (error, pong), code = asyncio.run(scenario())
    assert WS_MAX_BYTES == 16 * 1024
    assert error["type"] == "error" and error["code"] == "frame_too_large" and error["message"]
    assert pong["type"] == "pong"
    assert code == 1009
