"""A/B load benchmark in one run: bench/load.py on a git REF (in a worktree) and on the working tree, alternately.

    .venv/bin/python bench/ab.py 25f81a3 --rounds 3 -- --games 100 --servers 2 --paced-seconds 20 --flat-seconds 15
    bash bench/ab.sh 25f81a3                       # the same, with those defaults

The machine is noisy: a change is judged only against its base measured in the same run, sides taking turns
(A B, B A, A B, ...) so that drift hits both alike. Each side has its own database on the same PostgreSQL and
Redis servers: by default throwaway ones of the benchmark's own (devstack/embedded.py, durable like a
deployment's: fsync on), or `--database-url` / `--redis-url` (a database name and Redis database are appended
per side). Before the rounds each side runs once, unmeasured, on its fresh database (`--warmup`, 10 s paced and 3 s
flat out): the first run on a new database stalled commits now and then for up to 0.4 s, on either side.
Prints each metric's range over the rounds for both sides and the ratio of their medians (B / A).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Rows of bench/load.py's table: | mode | games | seconds | accepted | moves/s | p50 | p95 | p99 | stale | cpu |
ROW = re.compile(r"^\| (paced|flat) \|([^\n]*)\|\s*$", re.M)
COST = re.compile(r"^\| (SQL queries per move \(mean / max\)|move-log row, bytes \(mean\)|first 100 moves, ms per move "
                  r"\(median\)|last 100 moves, ms per move \(median\)) \| ([0-9.]+)", re.M)
FIRST_100, LAST_100 = "first 100 moves, ms per move (median)", "last 100 moves, ms per move (median)"
METRICS = [
    ("paced", "p50", "paced p50 ms"),
    ("paced", "p95", "paced p95 ms"),
    ("paced", "p99", "paced p99 ms"),
    ("paced", "cpu_server", "paced server CPU ms/move"),
    ("paced", "cpu_server_loop", "of it, in the event loops"),
    ("paced", "cpu_postgres", "paced PostgreSQL CPU ms/move"),
    ("paced", "cpu_redis", "paced Redis CPU ms/move"),
    ("flat", "moves_per_s", "flat moves/s"),
    ("flat", "cpu_server", "flat server CPU ms/move"),
]


def parse(output: str) -> dict[str, dict[str, float]]:
    """{mode: metrics} from one load.py run (its last row of each mode), plus the per-move costs if printed."""
    found: dict[str, dict[str, float]] = {}
    for mode, rest in ROW.findall(output):
        cells = [c.strip() for c in rest.split("|")]
        cpu = [float(x) for x in cells[-1].split("·")]
        found[mode] = {
            "moves_per_s": float(cells[3]),
            "p50": float(cells[4]),
            "p95": float(cells[5]),
            "p99": float(cells[6]),
            "cpu_server": cpu[0],
            "cpu_client": cpu[1],
            "cpu_postgres": cpu[2],
            "cpu_redis": cpu[3],
            **({"cpu_server_loop": cpu[4]} if len(cpu) > 4 else {}),  # not printed by a load.py before 2026-11-28
        }
    costs = {name: float(value) for name, value in COST.findall(output)}
    if costs:
        found["costs"] = costs
    return found


def worktree(ref: str) -> Path:
    sha = subprocess.run(["git", "rev-parse", ref], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.gettempdir()) / f"catan-ab-{sha.strip()[:12]}"
    if not path.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(path), ref], cwd=ROOT, check=True)
    return path


def run_side(root: Path, database_url: str, redis_url: str, load_args: list[str]) -> str:
    # The work tree's interpreter and packages; the side's own code: load.py puts its root first on sys.path
    # and starts its servers there (`python -m catan_site.serve` from that folder).
    argv = [sys.executable, str(root / "bench" / "load.py"), "--no-write", "--database-url", database_url]
    argv += ["--redis-url", redis_url, *load_args]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CATAN_EMBEDDED_")}
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"load.py failed in {root}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return done.stdout


def round_line(number: int, side: str, result: dict) -> str:
    """One side's figures in one round: the issue's bounds hold (or not) round by round, not on the ranges."""
    paced, flat, costs = result.get("paced", {}), result.get("flat", {}), result.get("costs", {})
    line = (
        f"round {number} {side}: paced p50/p95/p99 {paced.get('p50')}/{paced.get('p95')}/{paced.get('p99')} ms, "
        f"server CPU {paced.get('cpu_server')} ms/move (PostgreSQL {paced.get('cpu_postgres')}), flat "
        f"{flat.get('moves_per_s')} moves/s"
    )
    first, last = costs.get(FIRST_100), costs.get(LAST_100)
    if first and last:
        line += f", last 100 / first 100 moves {last / first:.2f}"
    return line


def warmup_args(load_args: list[str]) -> list[str]:
    """The load's options with short phases: a warm-up needs the tables, the files and the plans, not figures."""
    args = list(load_args)
    for option, seconds in (("--paced-seconds", "10"), ("--flat-seconds", "3")):
        if option in args:
            args[args.index(option) + 1] = seconds
        else:
            args += [option, seconds]
    return args


def spread(values: list[float]) -> str:
    if not values:
        return "—"
    low, high = min(values), max(values)
    digits = 2 if high < 10 else 1  # CPU per move against a bound such as 1.2 ms: "1.1–1.2" would not say
    return f"{low:.{digits}f}" if low == high else f"{low:.{digits}f}–{high:.{digits}f}"


def table(ref: str, results: dict[str, list[dict]], rounds: int, b_name: str = "working tree") -> str:
    lines = [
        f"| metric | A: {ref} | B: {b_name} | B / A (medians) |",
        "|---|---|---|---|",
    ]
    rows = [(mode, key, label) for mode, key, label in METRICS]
    for mode, key, label in rows:
        a = [r[mode][key] for r in results["A"] if key in r.get(mode, {})]
        b = [r[mode][key] for r in results["B"] if key in r.get(mode, {})]
        ratio = statistics.median(b) / statistics.median(a) if a and b and statistics.median(a) else float("nan")
        lines.append(f"| {label} | {spread(a)} | {spread(b)} | {ratio:.2f} |")
    for name in ("SQL queries per move (mean / max)", "move-log row, bytes (mean)", FIRST_100, LAST_100):
        a = [r["costs"][name] for r in results["A"] if name in r.get("costs", {})]
        b = [r["costs"][name] for r in results["B"] if name in r.get("costs", {})]
        if a or b:
            ratio = statistics.median(b) / statistics.median(a) if a and b and statistics.median(a) else float("nan")
            lines.append(f"| {name.replace(' (mean / max)', ' (mean)')} | {spread(a)} | {spread(b)} | {ratio:.2f} |")
    lines.append("")
    lines.append(f"{rounds} rounds, sides alternating (A B, B A, ...); ranges over the rounds.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ref", help="the git commit to compare with (A)")
    parser.add_argument("--b", help="a commit for B instead of the working tree (both then run from worktrees)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--warmup",
        type=int,
        default=1,
        help="unmeasured runs of each side before the rounds (10 s paced, 3 s flat out), on its own fresh database",
    )
    parser.add_argument("--database-url", help="a PostgreSQL server (postgres://user@host:port); default: our own")
    parser.add_argument("--redis-url", help="a Redis server (redis://host:port); default: our own")
    parser.add_argument("--write", action="store_true", help="write the table into docs/PERFORMANCE.md")
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    load_args = argv[split + 1 :]  # after --: bench/load.py's options
    if not any(a.startswith("--long-moves") for a in load_args):
        load_args += ["--long-moves", "0"]
    sides = {"A": worktree(args.ref), "B": worktree(args.b) if args.b else ROOT}
    from devstack.local import services

    env_in = {} if not (args.database_url and args.redis_url) else {
        "DATABASE_URL": args.database_url.rstrip("/") + "/postgres",
        "REDIS_URL": args.redis_url.rstrip("/") + "/0",
    }
    folder = Path(tempfile.mkdtemp(prefix="catan-ab-services-"))
    results: dict[str, list[dict]] = {"A": [], "B": []}
    try:
        with services(folder, env_in) as env:
            pg = env["DATABASE_URL"].rsplit("/", 1)[0]
            redis = env["REDIS_URL"].rsplit("/", 1)[0]
            urls = {"A": (f"{pg}/catan_bench_a", f"{redis}/5"), "B": (f"{pg}/catan_bench_b", f"{redis}/6")}
            # A fresh database is not a running site's: in the first run on one, commits stalled now and then for up
            # to 0.4 s (the commit stage's p99 202 ms, against 3.9 ms in the next run on the same database), on
            # whichever side ran first. Each side runs once on its own database before the measured rounds.
            for _ in range(args.warmup):
                for side in ("A", "B"):
                    run_side(sides[side], *urls[side], warmup_args(load_args))
                    print(f"warm-up {side}: done (not measured)", flush=True)
            for number in range(args.rounds):
                order = ["A", "B"] if number % 2 == 0 else ["B", "A"]
                for side in order:
                    output = run_side(sides[side], *urls[side], load_args)
                    results[side].append(parse(output))
                    print(round_line(number + 1, side, results[side][-1]), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    output = table(args.ref, results, args.rounds, args.b or "working tree")
    print(output)
    if args.write:
        from bench.perfdoc import write_section

        command = "bash bench/ab.sh " + " ".join(argv)
        write_section(
            "ab",
            f"## A/B: the load benchmark, a commit against the working tree\n\nCommand: `{command.strip()}` — "
            f"{datetime.date.today().isoformat()}, {os.cpu_count()} cores.\n\n{output}",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
