"""Load benchmark: real ASGI servers (uvicorn, as deployed) on PostgreSQL + Redis, driven by WebSocket clients.

    .venv/bin/python bench/load.py --games 100 --servers 1        # paced + flat out, one process
    .venv/bin/python bench/load.py --games 100 --servers 2        # scale-out: seats spread over two processes

Each game has four seats, each a WebSocket client reading its own view and submitting legal moves.
- Paced: every game offers one move per second on average; we time submit → every seat has the update.
- Flat out: every seat moves as soon as it may; we count accepted moves per second.
Then, in-process: SQL queries and bytes stored per move, and the cost of the first and last 100 moves of a
long game. Prints tables and writes them to docs/PERFORMANCE.md (bench:load markers).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
BASE_PORT = 8101


def bench_env(database_url: str, redis_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "RATE_LIMIT_MOVES": "1000000",
        "MAX_GAMES_PER_USER": "1000",

        "DB_CONN_MAX_AGE": os.environ.get("DB_CONN_MAX_AGE", "60"),
        # As deployed: INFO, one JSON line per move (infra/logs.py), written where a log shipper would read it.
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO"),
        "DJANGO_SETTINGS_MODULE": "catan_site.settings",
    }


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def server_command(server: str, port: int) -> list[str]:
    if server == "daphne":
        return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "catan_site.asgi:application"]
    return [sys.executable, "-m", "catan_site.serve", "--host", "127.0.0.1", "--port", str(port), "--no-access-log"]


def start_servers(count: int, env: dict[str, str], server: str = "uvicorn") -> list[subprocess.Popen]:
    servers = []
    for i in range(count):
        port = BASE_PORT + i
        servers.append(
            subprocess.Popen(
                server_command(server, port),
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    for i in range(count):
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{BASE_PORT + i}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.2)
    return servers


def make_games(count: int) -> list[tuple[int, list[str]]]:
    """Games of four human seats, started; returns (game id, session keys per seat)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services

    tag = uuid.uuid4().hex[:6]
    games = []
    for g in range(count):
        users = []
        for s in range(4):
            user = User(username=f"load{tag}g{g}s{s}")
            user.set_unusable_password()
            user.save()
            users.append(user)
        game = services.game_create(creator=users[0], seat_count=4, options={"seat_order": "fixed"})
        for user in users[1:]:
            services.seat_join(game_id=game.pk, user=user)
        services.game_start(game_id=game.pk, user=users[0])
        keys = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            keys.append(session.session_key)
        games.append((game.pk, keys))
    return games


class Seat:
    def __init__(self) -> None:
        self.seq = -1
        self.legal: list[dict] = []
        self.ws = None


class Game:
    def __init__(self, game_id: int) -> None:
        self.id = game_id
        self.seats = [Seat() for _ in range(4)]
        self.pending: dict[int, float] = {}  # target seq → submit time
        self.latencies: list[float] = []
        self.accepted = 0
        self.errors = 0
        self.received_bytes = 0  # every frame's bytes, all seats (bench/fleet.py: bytes sent per seat per move)
        self.changed = asyncio.Event()
        self.over = False

    def seen(self, seat: int, frame: dict) -> None:
        s = self.seats[seat]
        if frame.get("seq", -1) >= s.seq:
            s.seq = frame["seq"]
            s.legal = [a for a in frame.get("legal", []) if a["type"] != "offer_trade"]
            if frame.get("view", {}).get("phase") == "game_over":
                self.over = True
        now = time.perf_counter()
        for target in [t for t in self.pending if all(x.seq >= t for x in self.seats)]:
            self.latencies.append(now - self.pending.pop(target))
        self.changed.set()


async def client(game: Game, seat: int, session_key: str, port: int, stop: asyncio.Event) -> None:
    import websockets

    headers = {"Cookie": f"sessionid={session_key}", "Origin": f"http://127.0.0.1:{port}"}
    # No compression, as the server offers none; orjson to read frames: the client shares the two cores with the
    # servers, so its own CPU per move is kept small.
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/games/{game.id}/", additional_headers=headers, max_size=2**22, compression=None
    ) as ws:
        game.seats[seat].ws = ws
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            game.received_bytes += len(raw)
            frame = orjson.loads(raw)
            kind = frame.get("type")
            if kind in ("state", "update"):
                game.seen(seat, frame)
            elif kind == "ack" and not frame.get("duplicate"):
                game.accepted += 1
            elif kind == "error":
                game.errors += 1
                if frame.get("code") != "stale":
                    await ws.send(json.dumps({"type": "sync"}))


async def submit(game: Game, rng: random.Random, track: bool) -> bool:
    movers = [i for i, s in enumerate(game.seats) if s.legal and s.ws is not None]
    if not movers or game.over:
        return False
    seat = game.seats[rng.choice(movers)]
    action = rng.choice(seat.legal)
    seat.legal = []  # one submit per view
    if track:
        game.pending[seat.seq + 1] = time.perf_counter()
    await seat.ws.send(json.dumps({"type": "move", "action": action, "seq": seat.seq, "key": uuid.uuid4().hex}))
    return True


async def drive(game: Game, mode: str, stop: asyncio.Event, seed: int) -> None:
    """Moves for one game: one a second on average ("paced"), each as soon as the last is answered ("flat"), or
    none ("idle": every seat connected and reading, bench/idle.py)."""
    if mode == "idle":
        await stop.wait()
        return
    rng = random.Random(seed)
    while not stop.is_set() and not game.over:
        if mode == "paced":
            await asyncio.sleep(rng.expovariate(1.0))
            await submit(game, rng, track=True)
        else:
            game.changed.clear()
            if not await submit(game, rng, track=False):
                try:
                    await asyncio.wait_for(game.changed.wait(), timeout=0.5)
                except TimeoutError:
                    pass
            else:
                try:
                    await asyncio.wait_for(game.changed.wait(), timeout=2)
                except TimeoutError:
                    pass


# The servers record each move's stages (infra/timing.py) under this prefix; SIGUSR1 makes each write them out.
TIMINGS = Path(tempfile.gettempdir()) / f"catan-move-timings-{os.getpid()}"
STAGES = (
    *("parse", "to_thread", "limit", "lock", "apply", "save", "commit", "to_loop", "fanout", "ack", "total"),
    *("deliver", "gc_full", "client_lag"),
)


def collect_stages(server_pids: list[int]) -> dict[str, list[float]]:
    """The stage timings (ms) each server recorded since the last call, merged; the servers start afresh.
    Nothing without --stages (a server without its SIGUSR1 handler would die of the signal)."""
    if not os.environ.get("MOVE_TIMINGS"):
        return {}
    for path in TIMINGS.parent.glob(f"{TIMINGS.name}-*.json"):
        path.unlink()
    for pid in server_pids:
        os.kill(pid, signal.SIGUSR1)
    merged: dict[str, list[float]] = {}
    deadline = time.monotonic() + 5
    for pid in server_pids:
        path = TIMINGS.parent / f"{TIMINGS.name}-{pid}.json"
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if path.exists():
            for stage, values in json.loads(path.read_text()).items():
                if stage == "stalls":
                    for stall in values:
                        print(f"server {pid} loop stall {stall}", file=sys.stderr)
                    continue
                merged.setdefault(stage, []).extend(values)
            path.unlink()
    return merged


def cpu_seconds(pids: list[int | str], children: bool = False) -> float:
    """User + system CPU seconds of these processes so far (Linux /proc; "PID/task/TID" names one thread); with
    `children`, also that of their exited children (PostgreSQL's postmaster reaps the backends that close)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        if children:
            total += int(fields[13]) + int(fields[14])
    return total / os.sysconf("SC_CLK_TCK")


def service_pids() -> dict[str, list[int]]:
    """PostgreSQL and Redis server processes, by name."""
    found: dict[str, list[int]] = {"postgres": [], "redis": []}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if name.startswith("postgres"):
            found["postgres"].append(int(entry.name))
        elif name.startswith("redis-server"):
            found["redis"].append(int(entry.name))
    return found


def loop_cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds so far of these processes' main threads: a server's event loop, where the sockets
    are read and written; its other threads run the moves (Linux /proc/PID/task/PID)."""
    return cpu_seconds([f"{pid}/task/{pid}" for pid in pids])


def cpu_snapshot(server_pids: list[int]) -> tuple[float, float, float, float, float]:
    """CPU seconds so far of the ASGI servers, this client, PostgreSQL, Redis, and the servers' event loops."""
    services = service_pids()
    return (
        cpu_seconds(list(server_pids)),
        time.process_time(),
        cpu_seconds(services["postgres"], children=True),
        cpu_seconds(services["redis"]),
        loop_cpu_seconds(list(server_pids)),
    )


async def run_mode(
    games_info, mode: str, seconds: float, servers: int, server_pids: list[int] = (), meter=None
) -> dict:
    """One measured window of `mode`, once every seat is connected (connecting is not a move's cost). `meter`, a
    function, is also read at the window's start and end (bench/fleet.py's CPU of every part of the fleet)."""
    games = [Game(gid) for gid, _ in games_info]
    stop = asyncio.Event()
    clients = [
        asyncio.create_task(client(g, s, keys[s], BASE_PORT + (i + s) % servers, stop))
        for i, (g, (_, keys)) in enumerate(zip(games, games_info, strict=True))
        for s in range(4)
    ]
    for _ in range(100):  # wait for every seat's first state
        if all(seat.seq >= 0 for g in games for seat in g.seats):
            break
        await asyncio.sleep(0.1)
    # The client's own garbage collections would stall every socket it reads for tens of milliseconds and show
    # as the server's latency: collect now, and not during the measured window.
    gc.collect()
    gc.disable()
    accepted_before = sum(g.accepted for g in games)
    collect_stages(server_pids)  # what came before the window is not measured
    cpu_before = cpu_snapshot(server_pids)
    metered_before = meter() if meter is not None else None
    started = time.perf_counter()
    drivers = [asyncio.create_task(drive(g, mode, stop, i)) for i, g in enumerate(games)]
    lags: list[float] = []
    watcher = asyncio.create_task(loop_lag(stop, lags))
    await asyncio.sleep(seconds)
    cpu_after = cpu_snapshot(server_pids)
    metered_after = meter() if meter is not None else None
    in_window = sum(g.accepted for g in games) - accepted_before
    stages = collect_stages(server_pids)
    stop.set()
    elapsed = time.perf_counter() - started
    await asyncio.gather(*drivers, *clients, watcher, return_exceptions=True)
    gc.enable()
    latencies = sorted(x for g in games for x in g.latencies)
    accepted = sum(g.accepted for g in games)

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else float("nan")

    return {
        "mode": mode,
        "games": len(games),
        "seconds": elapsed,
        "accepted": accepted,
        "moves_per_s": accepted / elapsed,
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "stale": sum(g.errors for g in games),
        "received_bytes": sum(g.received_bytes for g in games),
        # CPU milliseconds per accepted move: ASGI servers, this load client, PostgreSQL, Redis, and the part of
        # the servers' in their event loops (the rest: the threads that run the moves).
        "cpu_ms": [1000 * (a - b) / max(1, in_window) for a, b in zip(cpu_after, cpu_before, strict=True)],
        "stages": {**stages, "client_lag": [1000 * x for x in lags]},
        "in_window": in_window,
        "metered": (metered_before, metered_after),
    }


async def loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """How late this client's event loop wakes from a 10 ms sleep: a stall here delays every frame it reads, and
    would show as the server's latency."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - before - 0.01)


def stage_lines(results: list[dict]) -> list[str]:
    """Per mode (its last run), each stage's p50 / p95 / p99 / max in ms over the moves the servers accepted."""
    lines = [
        "",
        "| server-side stage of a move, ms | mode | moves | p50 | p95 | p99 | max |",
        "|---|---|---|---|---|---|---|",
    ]
    last = {r["mode"]: r for r in results}
    for mode, r in last.items():
        for stage in STAGES:
            values = sorted(r["stages"].get(stage, []))
            if not values:
                continue

            def at(p: float, values: list[float] = values) -> float:
                return values[min(len(values) - 1, int(p * len(values)))]

            lines.append(
                f"| {stage} | {mode} | {len(values)} | {at(0.5):.2f} | {at(0.95):.2f} | {at(0.99):.2f} | "
                f"{values[-1]:.2f} |"
            )
    return lines if len(lines) > 3 else []


@contextmanager
def serving(
    database_url: str, redis_url: str, servers: int, server: str = "uvicorn", stages: bool = False
) -> Iterator[list[int]]:
    """The database migrated, Django set up in this process (make_games writes through the ORM), and `servers`
    ASGI server processes started; their PIDs, and the servers stopped afterwards."""
    env = bench_env(database_url, redis_url)
    if stages:
        env["MOVE_TIMINGS"] = str(TIMINGS)
    ensure_database(database_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django  # once the environment above names the settings and the database

    django.setup()
    started = start_servers(servers, env, server)
    try:
        yield [process.pid for process in started]
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--paced-seconds", type=float, default=30)
    parser.add_argument("--flat-seconds", type=float, default=20)
    parser.add_argument(
        "--runs", type=int, default=1, help="runs of each mode, each on fresh games (the machine is noisy: show spread)"
    )
    parser.add_argument("--long-moves", type=int, default=1000, help="0 skips the per-move costs")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/catan_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/3")
    parser.add_argument(
        "--server",
        choices=["uvicorn", "daphne"],
        default="uvicorn",
        help="the ASGI server (uvicorn: catan_site.serve, as deployed)",
    )
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--stages",
        action="store_true",
        help="the servers time each move's stages and their loop stalls (infra/timing.py; costs a little CPU)",
    )
    args = parser.parse_args(argv)

    with serving(args.database_url, args.redis_url, args.servers, args.server, args.stages) as pids:
        results = []
        for mode, seconds in [("paced", args.paced_seconds)] * args.runs + [("flat", args.flat_seconds)] * args.runs:
            results.append(asyncio.run(run_mode(make_games(args.games), mode, seconds, args.servers, pids)))
    # Imported here: `bench` is importable as a package only once `serving` has put this tree's root on sys.path.
    from bench.move_costs import per_move_costs

    costs = per_move_costs(args.long_moves, make_games) if args.long_moves else None
    lines = [
        f"Servers: {args.servers} {args.server} process(es), PostgreSQL + Redis, DEBUG off; {args.games} games of 4 "
        "WebSocket seats each.",
        "",
        "| mode | games | seconds | accepted moves | moves/s | p50 ms | p95 ms | p99 ms | stale submits "
        "| CPU ms/move: server · client · PostgreSQL · Redis · servers' event loops |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        cpu = " · ".join(f"{x:.2f}" for x in r["cpu_ms"])
        lines.append(
            f"| {r['mode']} | {r['games']} | {r['seconds']:.0f} | {r['accepted']} | {r['moves_per_s']:.0f} | "
            f"{r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} | {r['stale']} | {cpu} |"
        )
    lines += stage_lines(results)
    if costs is not None:
        lines += [
            "",
            "| per move (one game, in-process) | value |",
            "|---|---|",
            f"| moves played | {costs['moves']} |",
            f"| SQL queries per move (mean / max) | {costs['queries_per_move']:.1f} / {costs['queries_max']} |",
            f"| move-log row, bytes (mean) | {costs['move_row_bytes']:.0f} |",
            f"| game snapshot, bytes (updated in place) | {costs['snapshot_bytes']:.0f} |",
            f"| first 100 moves, ms per move (median) | {costs['first100_ms']:.2f} |",
            f"| last 100 moves, ms per move (median) | {costs['last100_ms']:.2f} |",
        ]
    output = "\n".join(lines)
    print(output)
    if not args.no_write:
        command = ".venv/bin/python bench/load.py " + " ".join(argv if argv is not None else sys.argv[1:])
        from bench.perfdoc import write_section

        write_section(
            f"load-{args.servers}",
            f"## Load: live games over WebSockets, {args.servers} server process(es)\n\nCommand: `{command.strip()}` — "
            f"{datetime.date.today().isoformat()}, {os.cpu_count()} cores.\n"
            "Latency is from a seat submitting a move to every seat of that game holding the update.\n\n"
            f"{output}",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
