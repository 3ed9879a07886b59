"""The live load through the fleet: bench/load.py's games and clients, through HAProxy, in front of 1, 2 and 3 web
nodes, with PgBouncer in transaction mode and Redis by role (devstack/fleet.py's topology, on servers of its own).

    .venv/bin/python bench/fleet.py --games 60 --paced-seconds 15 --flat-seconds 10

For each number of nodes: paced latency (p50/p95/p99), flat-out moves/s, and CPU milliseconds per accepted move
of every part: the web nodes (in all and each), PostgreSQL (postmaster and backends), PgBouncer, each Redis by
role, HAProxy and the load client; and the inputs of docs/SCALING.md's model: WAL bytes and bytes sent to the
seats per move. This machine has two cores: scaling shows as CPU per move, which should stay flat from 1 to 3
nodes, not as moves/s. Flat out, every process fights for the two cores and more web processes take a larger
share of them: the paced run (one move per game per second, the machine far from full) is the fairer reading.
Writes its table to docs/PERFORMANCE.md (bench:fleet markers) unless --no-write.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402  (after the root is on the path)
from devstack.embedded import free_port  # noqa: E402
from devstack.fleet import Fleet  # noqa: E402
from devstack.local import DATABASE_NAME  # noqa: E402
from devstack.proxies import APT_LINE, missing_packages  # noqa: E402


def descendants(pid: int) -> list[int]:
    """`pid` and every process below it (PostgreSQL's backends under the postmaster)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        each = stack.pop()
        found.append(each)
        stack.extend(children.get(each, []))
    return found


class Meter:
    """CPU seconds of the fleet's parts (and this client), read before and after a run."""

    def __init__(self, fleet: Fleet, web: list[subprocess.Popen]) -> None:
        self.parts = {f"web{i + 1}": lambda p=process: [p.pid] for i, process in enumerate(web)}
        self.parts["postgres"] = lambda: descendants(fleet.postgres.pid)
        self.parts["pgbouncer"] = lambda: [fleet.pgbouncer.pid]
        for role, server in fleet.redis.items():
            self.parts[f"redis {role}"] = lambda s=server: [s.pid]
        self.parts["haproxy"] = lambda: [fleet.haproxy.pid]

    def read(self) -> dict[str, float]:
        seconds = {name: load.cpu_seconds(pids(), children=name == "postgres") for name, pids in self.parts.items()}
        seconds["client"] = time.process_time()
        return seconds


def wal_bytes(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as pg:
        return pg.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()[0]


def start_node(port: int, env: dict[str, str], root: Path, check_path: str) -> subprocess.Popen:
    """A web node running the code of `root` (this tree, or --ref's worktree: `python -m` from that folder)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "catan_site.serve", "--host", "127.0.0.1", "--port", str(port), "--no-access-log"],
        cwd=root,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{check_path}", timeout=2) as response:
                if response.status == 200:
                    time.sleep(1.5)  # the balancer's two good checks
                    return process
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"web node on {port} did not start")


def measure(fleet: Fleet, web: list[subprocess.Popen], args: argparse.Namespace, direct: str) -> dict:
    meter = Meter(fleet, web)
    row: dict = {"nodes": len(web)}
    for mode, seconds in (("paced", args.paced_seconds), ("flat", args.flat_seconds)):
        # --per-node: the paced load grows with the nodes (each node carries the same), as a fleet grows with its
        # players; the flat-out run keeps --games.
        count = args.per_node * len(web) if mode == "paced" and args.per_node else args.games
        games = load.make_games(count)
        # Read in the measured window only, once every seat is connected: a socket's connection (its seat, its
        # first state) is not a move's cost, and 240 of them weighed more than the moves of a paced run.
        pids = [p.pid for p in web]
        result = asyncio.run(
            load.run_mode(games, mode, seconds, 1, pids, meter=lambda: (meter.read(), wal_bytes(direct)))
        )
        (before, wal_before), (after, wal_after) = result["metered"]
        moves = max(1, result["in_window"])
        cpu = {name: 1000 * (after[name] - before[name]) / moves for name in after}
        row[mode] = {**result, "cpu": cpu, "wal": (wal_after - wal_before) / moves}
    return row


def table(rows: list[dict]) -> str:
    parts = [name for name in rows[-1]["flat"]["cpu"] if not name.startswith("web")]
    lines = [
        "| nodes | paced moves/s | paced p50 / p95 / p99 ms | paced web CPU ms/move | flat moves/s "
        "| web CPU ms/move (all · each) | "
        + " | ".join(f"{p} ms/move" for p in parts)
        + " | WAL bytes/move | bytes to the seats/move |",
        "|---|---|---|---|---|---|" + "---|" * len(parts) + "---|---|",
    ]
    for row in rows:
        paced, flat = row["paced"], row["flat"]
        web = {k: v for k, v in flat["cpu"].items() if k.startswith("web")}
        lines.append(
            f"| {row['nodes']} | {paced['moves_per_s']:.0f} | "
            f"{paced['p50']:.1f} / {paced['p95']:.1f} / {paced['p99']:.1f} | "
            f"{sum(v for k, v in paced['cpu'].items() if k.startswith('web')):.2f} | "
            f"{flat['moves_per_s']:.0f} | {sum(web.values()):.2f} · "
            + " / ".join(f"{v:.2f}" for v in web.values())
            + " | "
            + " | ".join(f"{flat['cpu'][p]:.2f}" for p in parts)
            + f" | {flat['wal']:.0f} | {flat['received_bytes'] / max(1, flat['accepted']):.0f} |"
        )
    return "\n".join(lines)


def compare(args: argparse.Namespace, argv: list[str]) -> int:
    """--ref: the same measure with the web nodes of `ref` (A), then of this tree (B), each in a fresh fleet."""
    from bench.ab import worktree

    rest = [a for i, a in enumerate(argv) if a != "--ref" and (i == 0 or argv[i - 1] != "--ref")]
    rest = [a for a in rest if not a.startswith("--ref=")]
    side_a = [sys.executable, __file__, *rest, "--no-write", "--code-root", str(worktree(args.ref)), "--check-path",
              "/healthz"]
    tables = {}
    for side, command in (("A", side_a), ("B", [sys.executable, __file__, *rest, "--no-write"])):
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode:
            print(done.stdout[-2000:], done.stderr[-3000:], file=sys.stderr)
            return done.returncode
        lines = [line for line in done.stdout.splitlines() if line.startswith("|")]
        tables[side] = "\n".join(lines[-(2 + args.nodes):])
        print(f"{side}: {'web nodes of ' + args.ref if side == 'A' else 'this tree'}\n{tables[side]}\n", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--nodes", type=int, default=3, help="measure with 1, 2, ... up to this many web nodes")
    parser.add_argument(
        "--per-node",
        type=int,
        default=0,
        help="paced games per web node (the paced load grows with the nodes: each carries the same); 0: --games",
    )
    parser.add_argument("--paced-seconds", type=float, default=15)
    parser.add_argument("--flat-seconds", type=float, default=10)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--ref",
        help="also run the web nodes of this commit (a worktree; its /healthz for the checks, and its statements "
        "unprepared, as an older site needed behind PgBouncer), then this tree's: both tables",
    )
    parser.add_argument("--code-root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--check-path", default="/healthz/ready", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.ref:
        return compare(args, argv if argv is not None else sys.argv[1:])
    if missing_packages():
        print(f"bench/fleet.py needs Debian's {', '.join(missing_packages())}: {APT_LINE}", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="catan-bench-fleet-"))
    fleet = Fleet(folder, web=args.nodes, port=free_port(), check_path=args.check_path)
    web: list[subprocess.Popen] = []
    try:
        fleet.start()
        direct = f"{fleet.postgres.url}/{DATABASE_NAME}"
        env = {**load.bench_env(direct, f"{fleet.redis['cache'].url}/0"), **fleet.env({})}
        env.update(RATE_LIMIT_MOVES="1000000", MAX_GAMES_PER_USER="1000", LOG_LEVEL="WARNING", DRAIN_SECONDS="0")
        if args.code_root != ROOT:
            env["DB_PREPARED_STATEMENTS"] = "false"  # an older site had to be told it stands behind PgBouncer
        migrate = [sys.executable, "manage.py", "migrate", "-v0"]
        subprocess.run(migrate, cwd=ROOT, env={**env, "DATABASE_URL": direct}, check=True)
        os.environ.update({**env, "DATABASE_URL": direct})
        import django  # once the environment names the settings and the database

        django.setup()
        load.BASE_PORT = fleet.port  # every client through the balancer
        rows = []
        for port in fleet.web_ports:
            web.append(start_node(port, env, args.code_root, args.check_path))
            rows.append(measure(fleet, web, args, direct))
            print(table(rows), flush=True)
    finally:
        for process in web:
            process.terminate()
        for process in web:
            process.wait(timeout=20)
        fleet.stop()
    output = table(rows)
    if args.code_root != ROOT:
        print(output)
        return 0
    if not args.no_write:
        from bench.perfdoc import write_section

        command = ".venv/bin/python bench/fleet.py " + " ".join(argv if argv is not None else sys.argv[1:])
        write_section(
            "fleet",
            f"## The fleet: the live load through HAProxy, 1 to {args.nodes} web nodes\n\n"
            f"Command: `{command.strip()}` — {datetime.date.today().isoformat()}, {os.cpu_count()} cores. "
            f"{args.games} games of four WebSocket seats, every client through HAProxy; PgBouncer in transaction "
            "mode; Redis by role (the layer on two). CPU per accepted move of the flat-out run.\n\n" + output,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
