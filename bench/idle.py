"""The servers' CPU with every socket connected and no move made: what a paced move's CPU figure carries of
keep-alives, timers and polling. Same servers, games and clients as bench/load.py (its defaults: the machine's
PostgreSQL and Redis), in its "idle" mode.

    .venv/bin/python bench/idle.py --games 100 --servers 2 --seconds 20

Also the servers' resident memory per socket (docs/SCALING.md).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402  (after the root is on the path)


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of these processes (Linux /proc)."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/catan_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/3")
    args = parser.parse_args(argv)
    with load.serving(args.database_url, args.redis_url, args.servers) as pids:
        games = load.make_games(args.games)
        before = rss_bytes(pids)
        result = asyncio.run(load.run_mode(games, "idle", args.seconds, args.servers, pids))
        after = rss_bytes(pids)  # Python keeps what the sockets took after they close: the peak, near enough
    sockets = args.games * 4
    # With no move, run_mode's "per move" figures are the window's totals (it divides by at least one move).
    per_second = result["cpu_ms"][0] / result["seconds"]
    print(
        f"idle: {sockets} sockets on {args.servers} server(s): {per_second:.1f} ms of server CPU per second "
        f"({1000 * per_second / sockets:.1f} µs per socket per second); "
        f"{(after - before) / sockets / 1024:.0f} KiB of server memory per socket"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
