"""The servers' CPU with every socket connected and no move made: what a paced move's CPU figure carries of
keep-alives, timers and polling. Same servers, games and clients as bench/load.py (its defaults: the machine's
PostgreSQL and Redis), in its "idle" mode.

    .venv/bin/python bench/idle.py --games 100 --servers 2 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402  (after the root is on the path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/catan_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/3")
    args = parser.parse_args(argv)
    with load.serving(args.database_url, args.redis_url, args.servers) as pids:
        result = asyncio.run(load.run_mode(load.make_games(args.games), "idle", args.seconds, args.servers, pids))
    # With no move, run_mode's "per move" figures are the window's totals (it divides by at least one move).
    print(
        f"idle: {args.games * 4} sockets on {args.servers} server(s): "
        f"{result['cpu_ms'][0] / result['seconds']:.1f} ms of server CPU per second"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
