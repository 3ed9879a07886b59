"""Several commits in one load-benchmark run, taking turns: a bisection of the move path in one command.

    .venv/bin/python bench/ab_many.py 4b5091e,899f29d,7464519,8d747e6,341f883 --rounds 2 -- --stages

Each commit runs from its own worktree on its own database of one embedded PostgreSQL and Redis (bench/ab.py's
`worktree` and `run_side`), once unmeasured first; the order rotates each round (and reverses every other one),
so that the machine's drift falls on every commit alike. Each run prints paced p50/p95/p99, server and
PostgreSQL CPU per move, the flat-out rate, and with `--stages` each stage's paced p99 and maximum.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ab import parse, run_side, warmup_args, worktree  # noqa: E402  (after the root is on the path)
from devstack.local import services  # noqa: E402

DEFAULT_LOAD = ["--games", "100", "--servers", "2", "--paced-seconds", "20", "--flat-seconds", "15", "--runs", "1"]
# bench/load.py's stage rows: | stage | paced | moves | p50 | p95 | p99 | max |
STAGE = re.compile(r"^\| (\w+) \| paced \| \d+ \| [0-9.]+ \| [0-9.]+ \| ([0-9.]+) \| ([0-9.]+) \|", re.M)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("refs", help="commits, comma-separated")
    parser.add_argument("--rounds", type=int, default=2)
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    load_args = [*DEFAULT_LOAD, "--long-moves", "0", *argv[split + 1 :]]
    refs = args.refs.split(",")
    sides = {ref: worktree(ref) for ref in refs}
    folder = Path(tempfile.mkdtemp(prefix="catan-ab-many-"))
    try:
        with services(folder, {}) as env:
            pg = env["DATABASE_URL"].rsplit("/", 1)[0]
            redis = env["REDIS_URL"].rsplit("/", 1)[0]
            urls = {ref: (f"{pg}/catan_many_{i}", f"{redis}/{5 + i}") for i, ref in enumerate(refs)}
            for ref in refs:
                run_side(sides[ref], *urls[ref], warmup_args(load_args))
                print(f"warm-up {ref}: done (not measured)", flush=True)
            for number in range(args.rounds):
                order = refs[number % len(refs) :] + refs[: number % len(refs)]
                for ref in order[::-1] if number % 2 else order:
                    output = run_side(sides[ref], *urls[ref], load_args)
                    found = parse(output)
                    paced, flat = found["paced"], found["flat"]
                    stages = {name: f"{p99}/{top}" for name, p99, top in STAGE.findall(output)}
                    print(
                        f"round {number + 1} {ref}: paced {paced['p50']}/{paced['p95']}/{paced['p99']} ms, server CPU "
                        f"{paced['cpu_server']} ms/move, PostgreSQL {paced['cpu_postgres']}, flat "
                        f"{flat['moves_per_s']} moves/s" + (f"; stage p99/max ms {stages}" if stages else ""),
                        flush=True,
                    )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
