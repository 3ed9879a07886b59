"""Real ASGI server processes for tests: started on the test database and Redis, waited for, stopped."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

from devstack.embedded import free_port  # noqa: F401 (re-exported: the tests import it from here)

ROOT = Path(__file__).resolve().parents[2]


def session_for(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def server_env(redis_url: str) -> dict[str, str]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "DEBUG": "false",
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "tests.server_settings",
    }


_static_collected: list[bool] = []


def collect_static(env: dict[str, str]) -> None:
    """A server with DEBUG off serves the collected static files through whitenoise's manifest: without them,
    every page (a 404 included) fails to render. Collected once per test process, into the folder of that process
    alone (STATIC_ROOT, set by tests/xdist_worker.py), which the servers it starts inherit."""
    if _static_collected:
        return
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"]
    subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=300)
    _static_collected.append(True)


def start_server(port: int, env: dict[str, str], log: Path | None = None) -> subprocess.Popen:
    """A real server process on `port`; its log lines go to the file `log` (none: nowhere)."""
    if env.get("DEBUG", "").lower() in ("false", "0", "no", "off"):
        collect_static(env)
    output = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115 (the child keeps it)
    server = subprocess.Popen(
        [sys.executable, "-m", "catan_site.serve", "--host", "127.0.0.1", "--port", str(port), "--no-access-log"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=output,
    )
    if log is not None:
        output.close()  # the child has its own copy
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            pass
        if time.monotonic() > deadline:
            server.kill()
            raise AssertionError("server did not start")
        time.sleep(0.2)


@contextmanager
def running_servers(env: dict[str, str], count: int) -> Iterator[tuple[list[int], list[subprocess.Popen]]]:
    """`count` real server processes on free ports with `env`: (ports, processes), each stopped afterwards (a test
    may stop one itself, or replace it in the list after starting it again)."""
    ports = [free_port() for _ in range(count)]
    processes: list[subprocess.Popen] = []
    try:
        for port in ports:
            processes.append(start_server(port, env))
        yield ports, processes
    finally:
        for process in processes:
            if process.poll() is None:
                stop(process)


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


async def open_socket(port: int, game_id: int, user) -> object:
    """A real WebSocket to a game on the server at `port`, as `user` (None: anonymous), past its first frame."""
    import websockets  # a dev dependency, only for tests that drive a real server

    headers = {"Origin": f"http://127.0.0.1:{port}"}
    if user is not None:
        headers["Cookie"] = f"sessionid={await asyncio.to_thread(session_for, user)}"
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/", additional_headers=headers)
    first = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
    assert first["type"] == "state"
    return ws


async def frames_until(ws, until, timeout: float = 10.0) -> list[dict]:
    """Frames received until `until(frame)` holds (that frame included)."""
    seen = []
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            seen.append(frame)
            if until(frame):
                return seen


async def play_over_sockets(
    game_id: int, sessions: list[str], ports: list[int], moves: int, key: str = "m"
) -> list[int]:
    """Each seat's person on a real WebSocket to the server at `ports[seat]`: whoever may act plays their first legal
    action, and every seat waits for the move's update (the mover for its ack too) before the next. Returns the
    acknowledged seqs; fails on any error frame."""
    import websockets  # a dev dependency, only for tests that drive a real server

    sockets, latest = [], []
    for seat, port in enumerate(ports):
        headers = {"Cookie": f"sessionid={sessions[seat]}", "Origin": f"http://127.0.0.1:{port}"}
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/", additional_headers=headers)
        first = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
        assert first["type"] == "state"
        sockets.append(ws)
        latest.append(first)
    acked = []
    for seq in range(moves):
        mover = next(seat for seat in range(len(ports)) if latest[seat]["legal"])
        action = latest[mover]["legal"][0]
        await sockets[mover].send(json.dumps({"type": "move", "action": action, "seq": seq, "key": f"{key}-{seq}"}))
        for seat, ws in enumerate(sockets):
            updated, wanted_ack = False, seat == mover
            async with asyncio.timeout(10):
                while not updated or wanted_ack:
                    frame = json.loads(await ws.recv())
                    assert frame["type"] != "error", frame
                    if frame["type"] == "ack":
                        assert frame == {"type": "ack", "seq": seq + 1, "key": f"{key}-{seq}", "duplicate": False}
                        acked.append(frame["seq"])
                        wanted_ack = False
                    elif frame["type"] == "update" and frame["seq"] == seq + 1:
                        latest[seat] = frame
                        updated = True
    for ws in sockets:
        await ws.close()
    return acked


def assert_stored_once_and_replayable(game_id: int, acked: list[int], moves: int) -> None:
    """Every move acknowledged at its seq, stored once, and the move log replays to the stored position."""
    import rules  # the engine, only for the tests that check a log (servers.py is imported by many)
    from games.models import Game
    from games.services.interventions import replay

    assert acked == list(range(1, moves + 1))
    game = Game.objects.get(pk=game_id)
    assert game.seq == moves
    replayed, log = replay(game, game.seq)
    assert [entry["seq"] for entry in log] == list(range(1, moves + 1))
    assert rules.dump(replayed) == rules.dump(rules.load(game.state))


def post_move(port: int, game_id: int, token: str, body: dict) -> tuple[int, dict[str, str]]:
    """A move POSTed to a real server's API with an API token: the status and the response's headers (names in
    lower case)."""
    import urllib.error

    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games/{game_id}/moves/",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}
