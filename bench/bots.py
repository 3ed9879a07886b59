"""Bot tournament: win rates with 95% Wilson intervals, per scenario and matchup.

    .venv/bin/python bench/bots.py --games 400 --scenario-games 100 --time-limit 0.05 --scenario-time-limit 0.01

Matchups (the hero is the first bot; the others fill the remaining seats):
  - medium vs random (base, --games games), target >= 60%;
  - hard vs medium (base, --games games), target >= 40% (25% would be even with four players);
  - on every scenario (base included), --scenario-games games of each level: easy and medium in self-play
    (every seat that level: the bots alone must finish the game), hard against medium bots.
The hero's seat rotates game by game with the first player fixed at seat 0, so it moves first, second...
equally often: the first-player advantage cancels. Every game is checked for illegal moves and stalls (no
winner within 20,000 actions). Runs on one core unless --jobs says otherwise.
Prints one table and writes it to docs/PERFORMANCE.md between the bench:bots markers (--no-write skips).

Against catanatron's bots (issue 43): `--against alphabeta` (or `value`) plays the hard bot against three of them
instead, in the benchmark's own environment (catanatron installed there only, never in the site's):

    .venv/bin/python bench/bots.py --against alphabeta --games 60 --time-limit 1 --jobs 2 -- --log ab1.jsonl

hands over to bench/run_vs_catanatron.sh with --games, --time-limit, --seed and --jobs, and whatever follows
`--` (--hero, --log, --skip, --merge, --no-offers: see bench/vs_catanatron.py); it prints win rates with 95%
Wilson intervals and where games are won and lost (cities, roads, army, trades, cards).
"""

from __future__ import annotations

import argparse
import datetime
import math
import multiprocessing
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bench.perfdoc import write_section  # noqa: E402
from rules.ai import BOTS, choose_for  # noqa: E402
from rules.ai.hard import HARD_CAP, SETUP_FACTOR, HardBot  # noqa: E402
from rules.scenarios import load_map, map_keys  # noqa: E402

MAX_ACTIONS = 20_000
TARGETS = {("medium", "random"): 0.60, ("hard", "medium"): 0.40}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def players_for(scenario: str) -> int:
    return 4 if scenario == "base" else max(load_map(scenario)["players"])


def make_bot(name: str, seed: int, time_limit: float) -> Any:
    if name == "hard":
        return HardBot(seed=seed, time_limit=time_limit)
    return BOTS[name](seed=seed)


@dataclass(frozen=True)
class Task:
    scenario: str
    hero: str
    rest: str
    game: int
    seed: int
    time_limit: float


@dataclass
class Result:
    task: Task
    won: bool
    finished: bool
    illegal: str | None
    actions: int
    turns: int
    seconds: float
    hero_decisions: int
    hero_seconds: float
    hero_max: float


def play(task: Task) -> Result:
    players = players_for(task.scenario)
    hero_seat = task.game % players
    state = rules.new_game(task.scenario, players, task.seed, {"seat_order": "fixed"})
    bots = [
        make_bot(task.hero if s == hero_seat else task.rest, task.seed * 10 + s, task.time_limit)
        for s in range(players)
    ]
    started = time.perf_counter()
    actions = decisions = 0
    hero_seconds = hero_max = 0.0
    illegal = None
    while actions < MAX_ACTIONS:
        seats = rules.to_move(state)
        if not seats:
            break
        seat = seats[0]
        t0 = time.perf_counter()
        action = choose_for(state, seat, bots[seat])
        spent = time.perf_counter() - t0
        if seat == hero_seat:
            decisions += 1
            hero_seconds += spent
            hero_max = max(hero_max, spent)
        try:
            rules.apply(state, seat, action)
        except rules.IllegalAction as error:
            illegal = f"{bots[seat].name}: {error}"
            break
        actions += 1
    return Result(
        task=task,
        won=state.winner == hero_seat,
        finished=state.winner is not None,
        illegal=illegal,
        actions=actions,
        turns=state.turn,
        seconds=time.perf_counter() - started,
        hero_decisions=decisions,
        hero_seconds=hero_seconds,
        hero_max=hero_max,
    )


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    finished: int = 0
    illegal: list[str] = field(default_factory=list)
    seconds: float = 0.0
    turns: int = 0
    decisions: int = 0
    hero_seconds: float = 0.0
    hero_max: float = 0.0

    def add(self, r: Result) -> None:
        self.games += 1
        self.wins += r.won
        self.finished += r.finished
        if r.illegal:
            self.illegal.append(r.illegal)
        self.seconds += r.seconds
        self.turns += r.turns
        self.decisions += r.hero_decisions
        self.hero_seconds += r.hero_seconds
        self.hero_max = max(self.hero_max, r.hero_max)


def tasks_for(args: argparse.Namespace) -> list[Task]:
    scenarios = [args.scenario] if args.scenario else ["base", *map_keys()]
    tasks: list[Task] = []
    if "base" in scenarios and not args.skip_headline:
        for hero, rest in (("hard", "medium"), ("medium", "random")):
            tasks += [Task("base", hero, rest, g, args.seed + g, args.time_limit) for g in range(args.games)]
    if args.scenario_games:
        for scenario in scenarios:
            for hero in args.levels.split(","):
                rest = "medium" if hero == "hard" else hero
                tasks += [
                    Task(scenario, hero, rest, g, args.seed + 100_000 + g, args.scenario_time_limit)
                    for g in range(args.scenario_games)
                ]
    # Long games first, so the pool ends evenly.
    return sorted(tasks, key=lambda t: (t.hero != "hard", t.rest != "medium"))


def table(tallies: dict[tuple[str, str, str, float], Tally]) -> str:
    lines = [
        "| scenario | matchup | games | hero wins | win rate | 95% CI | even | target | stalls | illegal "
        "| turns/game | s/game | hero ms/decision (max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (scenario, hero, rest, time_limit), t in tallies.items():
        players = players_for(scenario)
        low, high = wilson(t.wins, t.games)
        target = TARGETS.get((hero, rest)) if scenario == "base" else None
        limit = f" ({time_limit:g} s)" if hero == "hard" else ""
        decision = t.hero_seconds / max(1, t.decisions) * 1000
        goal = f"≥ {round(100 * target)}%" if target else ""
        if hero == rest:
            label, won, rate, interval, even = f"{hero} ×{players} (self-play)", "", "", "", ""
        else:
            label = f"{hero}{limit} vs {players - 1} {rest}"
            won, rate = str(t.wins), f"{100 * t.wins / t.games:.1f}%"
            interval, even = f"{100 * low:.1f}–{100 * high:.1f}%", f"{100 / players:.0f}%"
        lines.append(
            f"| {scenario} | {label} | {t.games} | {won} | {rate} | {interval} | {even} | {goal} "
            f"| {t.games - t.finished} | {len(t.illegal)} | {t.turns / t.games:.0f} | {t.seconds / t.games:.2f} "
            f"| {decision:.1f} ({1000 * t.hero_max:.0f}) |"
        )
    return "\n".join(lines)


def write_doc(output: str, command: str, wall: float) -> None:
    machine = f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.machine()}"
    section = (
        "### Bots: tournament\n\n"
        f"Command: `{command}` — {datetime.date.today().isoformat()}, {machine}, {wall / 60:.1f} min wall.\n"
        "Win rates of the first bot named against the others in the remaining seats, 95% Wilson intervals.\n"
        "The hero's seat rotates game by game (first player fixed at seat 0), cancelling the first-player\n"
        "advantage. `hero ms/decision` is the mean time per decision of the hero bot (max in brackets); the\n"
        f"hard bot searches with the per-decision time limit shown, set-up decisions {SETUP_FACTOR:g} times that,\n"
        f"never above the {HARD_CAP:g} s cap that bounds every decision in production. `stalls`: games with no\n"
        "winner within 20,000 actions; `illegal`: illegal moves made (either ends the game at once).\n\n"
        f"{output}\n"
    )
    write_section("bots", section)


AGAINST = ("alphabeta", "value")  # catanatron's bots, as bench/vs_catanatron.py names them


def against_command(args: argparse.Namespace, rest: list[str]) -> list[str]:
    """The command that plays `--against`: bench/vs_catanatron.py in the benchmark's environment."""
    return [
        "bash",
        str(ROOT / "bench" / "run_vs_catanatron.sh"),
        "--opponent",
        args.against,
        "--games",
        str(args.games),
        "--time-limit",
        f"{args.time_limit:g}",
        "--seed",
        str(args.seed),
        "--jobs",
        str(args.jobs),
        *rest,
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/bots.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per headline matchup (base)")
    parser.add_argument("--scenario-games", type=int, default=20, help="games per level vs random per scenario")
    parser.add_argument("--scenario", default=None, choices=["base", *map_keys()], help="only this scenario")
    parser.add_argument("--levels", default="easy,medium,hard", help="levels played on every scenario")
    parser.add_argument("--time-limit", type=float, default=1.0, help="hard bot seconds per decision (base)")
    parser.add_argument(
        "--scenario-time-limit", type=float, default=None, help="hard bot seconds per decision on every scenario"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default one core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-headline", action="store_true", help="only the per-scenario matrix")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/PERFORMANCE.md")
    parser.add_argument(
        "--against",
        choices=AGAINST,
        default=None,
        help="play the hard bot against three of catanatron's AlphaBeta or Value bots (bench/vs_catanatron.py)",
    )
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)  # what follows `--` is vs_catanatron.py's (--against)
    args, rest = parser.parse_args(argv[:cut]), argv[cut + 1 :]
    if args.against:
        command = against_command(args, rest)
        os.execvp(command[0], command)
    if rest:
        parser.error(f"arguments after -- go to --against's benchmark only: {' '.join(rest)}")
    if args.scenario_time_limit is None:
        args.scenario_time_limit = args.time_limit
    tasks = tasks_for(args)
    started = time.perf_counter()
    tallies: dict[tuple[str, str, str, float], Tally] = {}
    order = sorted({(t.scenario, t.hero, t.rest, t.time_limit) for t in tasks}, key=lambda k: (k[0] != "base", k))
    for key in order:
        tallies[key] = Tally()
    done = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for result in pool.imap_unordered(play, tasks):
            t = result.task
            tallies[(t.scenario, t.hero, t.rest, t.time_limit)].add(result)
            done += 1
            if result.illegal:
                print(f"illegal move: {t} {result.illegal}", file=sys.stderr, flush=True)
            if done % 50 == 0 or done == len(tasks):
                print(
                    f"{done}/{len(tasks)} games, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    wall = time.perf_counter() - started
    output = table(tallies)
    print(output)
    if not args.no_write:
        command = ".venv/bin/python bench/bots.py " + " ".join(argv)
        write_doc(output, command.strip(), wall)
    return 1 if any(t.illegal or t.finished < t.games for t in tallies.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
