"""Our bots against three of catanatron 3.2.1's AlphaBeta or Value bots, in our engine (issue 43).

    bash bench/run_vs_catanatron.sh --opponent alphabeta --games 100 --time-limit 0.1 --jobs 2
    .venv-bench/bin/python bench/vs_catanatron.py --opponent value --games 40 --time-limit 1 --seed 1

Base game, 10 points, four seats: the hero (our hard bot by default, deciding from its seat's view only and
following the game with its card tracker, as on the site) and three catanatron bots, which read the whole
state (`bench/catanatron_bridge.py`). Game g uses seed S+g; the hero sits at seat g mod 4 and seat 0 always
starts, so the hero plays first, second, third and fourth equally often. Prints the hero's win rate with its
95% Wilson interval, then where games are won and lost: the hero's mean cities, settlements, road length,
Longest Road and Largest Army, bank and player trades, development cards bought and held at the end and points
from cards, in won and lost games, beside the same for the winner of the games it lost, and which seat won
those (counted from the hero's).
`BENCH_RULES_ROOT=/path/to/other/tree` plays another tree's `rules` (an A/B of two versions on the same seeds).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
if os.environ.get("BENCH_RULES_ROOT"):
    sys.path.insert(0, os.environ["BENCH_RULES_ROOT"])

import rules  # noqa: E402
from bench.bots import wilson  # noqa: E402
from bench.catanatron_bridge import seats_for  # noqa: E402
from rules.ai import BOTS, choose_for  # noqa: E402
from rules.ai.hard import HardBot  # noqa: E402
from rules.ai.tracker import CardTracker  # noqa: E402
from rules.ai.value import seat_income  # noqa: E402

MAX_ACTIONS = 20_000
STATS = (
    "cities",
    "settlements",
    "road length",
    "longest road",
    "largest army",
    "knights",
    "bank trades",
    "player trades",
    "cards bought",
    "cards held",
    "card points",
    "points",
)


def seat_stats(state: rules.State, seat: int, counts: dict[str, int]) -> dict[str, float]:
    owner, city = state.vertex_owner, state.vertex_city
    mine = [v for v in range(len(owner)) if owner[v] == seat]
    held = sum(state.development[seat]) + sum(state.development_new[seat])
    return {
        "cities": sum(1 for v in mine if city[v]),
        "settlements": sum(1 for v in mine if not city[v]),
        "road length": state.road_length[seat],
        "longest road": float(state.longest_road == seat),
        "largest army": float(state.largest_army == seat),
        "knights": state.development_used[seat][0],
        "bank trades": counts.get(f"bank{seat}", 0),
        "player trades": counts.get(f"player{seat}", 0),
        "cards bought": counts.get(f"bought{seat}", 0),
        "cards held": held,
        "card points": state.development[seat][4] + state.development_new[seat][4],
        "points": rules.victory_points(state, seat),
    }


@dataclass(frozen=True)
class Task:
    opponent: str
    hero: str
    game: int
    seed: int
    time_limit: float
    offers: bool = True


@dataclass
class Result:
    task: Task
    won: bool
    finished: bool
    winner: int | None
    turns: int
    seconds: float
    hero_decisions: int
    hero_seconds: float
    searched: int
    iterations: int
    fallbacks: int
    hero: dict[str, float] = field(default_factory=dict)
    top: dict[str, float] = field(default_factory=dict)
    setup: list[float] = field(default_factory=list)  # each seat's pips (all resources) once the set-up is over


def play(task: Task) -> Result:
    if not task.offers:  # the hero never opens a domestic offer (it still answers none: nobody offers)
        import rules.ai.hard as hard_module
        import rules.ai.medium as medium_module

        hard_module.offer_allowed = medium_module.offer_allowed = lambda o: False
    state = rules.new_game("base", 4, task.seed, {"seat_order": "fixed"})
    hero_seat = task.game % 4
    seats, players = seats_for(task.opponent, 4, task.seed)
    if task.hero == "hard":
        bot: Any = HardBot(seed=task.seed * 10 + hero_seat, time_limit=task.time_limit)
    else:
        bot = BOTS[task.hero](seed=task.seed * 10 + hero_seat)
    if hasattr(bot, "tracker"):
        bot.tracker = CardTracker(hero_seat, 4)
    counts: dict[str, int] = {}
    started = time.perf_counter()
    actions = decisions = 0
    hero_seconds = 0.0
    setup: list[float] = []
    while actions < MAX_ACTIONS:
        if not setup and state.turn >= 1:
            setup = [sum(seat_income(state, s)[:5]) for s in range(4)]
        to_move = rules.to_move(state)
        if not to_move:
            break
        seat = to_move[0]
        if seat == hero_seat:
            t0 = time.perf_counter()
            action = choose_for(state, seat, bot)
            hero_seconds += time.perf_counter() - t0
            decisions += 1
        else:
            action = seats[seat].act(state, players)
        events = rules.apply(state, seat, action)
        for event in events:
            kind = event.get("type")
            if kind == "traded_bank":
                counts[f"bank{event['seat']}"] = counts.get(f"bank{event['seat']}", 0) + 1
            elif kind == "traded":
                for s in (event["seat"], event["partner"]):
                    counts[f"player{s}"] = counts.get(f"player{s}", 0) + 1
            elif kind == "bought_development":
                counts[f"bought{event['seat']}"] = counts.get(f"bought{event['seat']}", 0) + 1
        if hasattr(bot, "observe"):
            bot.observe(events)
        actions += 1
    winner = state.winner
    return Result(
        task=task,
        won=winner == hero_seat,
        finished=winner is not None,
        winner=winner,
        turns=state.turn,
        seconds=time.perf_counter() - started,
        hero_decisions=decisions,
        hero_seconds=hero_seconds,
        searched=getattr(bot, "searched", 0),
        iterations=getattr(bot, "iterations", 0),
        fallbacks=sum(s.fallbacks for k, s in seats.items() if k != hero_seat),
        hero=seat_stats(state, hero_seat, counts),
        top=seat_stats(state, winner, counts) if winner is not None else {},
        setup=setup,
    )


def mean(rows: list[dict[str, float]], key: str) -> str:
    return f"{sum(r[key] for r in rows) / len(rows):.2f}" if rows else "–"


def setup_lines(results: list[Result]) -> list[str]:
    """The set-up's production (pips of the five resources once every seat has placed): the hero's against the
    best other seat's, in games won and lost, and how often the hero's was the highest."""
    rows = [r for r in results if r.setup and r.finished]
    if not rows:
        return []
    out = ["", "Set-up production (pips once the set-up is over; means per game):", ""]
    out.append("| | games | hero | best other seat | the game's winner | hero highest |")
    out.append("|---|---|---|---|---|---|")
    for label, chosen in (("won", [r for r in rows if r.won]), ("lost", [r for r in rows if not r.won])):
        if not chosen:
            continue
        hero = [r.setup[r.task.game % 4] for r in chosen]
        best = [max(p for s, p in enumerate(r.setup) if s != r.task.game % 4) for r in chosen]
        winner = [r.setup[r.winner] for r in chosen if r.winner is not None]
        top = sum(h >= b for h, b in zip(hero, best, strict=True))
        out.append(
            f"| {label} | {len(chosen)} | {sum(hero) / len(hero):.1f} | {sum(best) / len(best):.1f} "
            f"| {sum(winner) / max(1, len(winner)):.1f} | {100 * top / len(chosen):.0f}% |"
        )
    return out


def winner_lines(results: list[Result]) -> list[str]:
    """Who won the games the hero lost, by seat after the hero's (1: the next to play after it). catanatron's
    value counts one enemy's production, the next player's: each of its bots robs the seat after its own, so the
    seat after the hero is held back by the hero's robber alone."""
    lost = [r for r in results if r.finished and not r.won and r.winner is not None]
    if not lost:
        return []
    after = [(r.winner - r.task.game % 4) % 4 for r in lost]
    cells = " | ".join(f"{after.count(k)} ({100 * after.count(k) / len(lost):.0f}%)" for k in (1, 2, 3))
    return [
        "",
        "Who won the games the hero lost (by seat after the hero's):",
        "",
        "| lost | the next seat | two after | the seat before |",
        "|---|---|---|---|",
        f"| {len(lost)} | {cells} |",
    ]


def report(results: list[Result], command: str) -> str:
    task = results[0].task
    n, wins = len(results), sum(r.won for r in results)
    low, high = wilson(wins, n)
    seeds = sorted(r.task.seed for r in results)
    decisions = sum(r.hero_decisions for r in results)
    searched = sum(r.searched for r in results)
    lines = [
        f"Command: `{command}`",
        "",
        "| hero | opponents | s/decision | games | wins | win rate | 95% CI | seeds | turns/game "
        "| hero ms/decision | searches/game | iterations/search | fallbacks/game |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {task.hero}{'' if task.offers else ' (no offers)'} | 3 × {task.opponent} "
        f"| {task.time_limit:g} | {n} | {wins} | {100 * wins / n:.1f}% "
        f"| {100 * low:.1f}–{100 * high:.1f}% | {seeds[0]}–{seeds[-1]} | {sum(r.turns for r in results) / n:.0f} "
        f"| {1000 * sum(r.hero_seconds for r in results) / max(1, decisions):.1f} | {searched / n:.0f} "
        f"| {sum(r.iterations for r in results) / max(1, searched):.1f} "
        f"| {sum(r.fallbacks for r in results) / n:.2f} |",
        "",
        "Where games are won and lost (means per game):",
        "",
        "| | " + " | ".join(STATS) + " |",
        "|---|" + "---|" * len(STATS),
    ]
    won = [r.hero for r in results if r.won]
    lost = [r.hero for r in results if not r.won and r.finished]
    winners = [r.top for r in results if not r.won and r.finished]
    for label, rows in (
        (f"hero, won ({len(won)})", won),
        (f"hero, lost ({len(lost)})", lost),
        (f"winner of those ({len(winners)})", winners),
    ):
        lines.append(f"| {label} | " + " | ".join(mean(rows, k) for k in STATS) + " |")
    lines.extend(setup_lines(results))
    lines.extend(winner_lines(results))
    unfinished = n - sum(r.finished for r in results)
    if unfinished:
        lines.append(f"\n{unfinished} game(s) without a winner within {MAX_ACTIONS} actions.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/vs_catanatron.py", description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", choices=("alphabeta", "value"), default="alphabeta")
    parser.add_argument("--hero", choices=("hard", "medium", "easy"), default="hard")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time-limit", type=float, default=1.0, help="hard bot seconds per decision")
    parser.add_argument("--seed", type=int, default=1, help="game g uses seed S+g")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--no-offers", action="store_true", help="the hero opens no domestic trade offers")
    parser.add_argument("--skip", type=int, default=0, help="start at game N (resume a run: same seeds and seats)")
    parser.add_argument("--log", default=None, help="append each game as a JSON line to this file, as it ends")
    parser.add_argument("--merge", nargs="+", default=None, help="only report the games of these --log files")
    args = parser.parse_args(argv)
    if args.merge:
        merged = [json.loads(line) for path in args.merge for line in Path(path).read_text().splitlines() if line]
        results = [Result(**{**r, "task": Task(**r["task"])}) for r in merged]
        results.sort(key=lambda r: r.task.seed)
        print(report(results, "merged: " + " ".join(args.merge)))
        return 0
    tasks = [
        Task(args.opponent, args.hero, g, args.seed + g, args.time_limit, not args.no_offers)
        for g in range(args.skip, args.games)
    ]
    results: list[Result] = []
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for result in pool.imap_unordered(play, tasks):
            results.append(result)
            if args.log:
                with open(args.log, "a") as log:
                    log.write(json.dumps(dataclasses.asdict(result)) + "\n")
            wins = sum(r.won for r in results)
            print(
                f"{len(results)}/{len(tasks)} games, hero {wins} wins, {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    results.sort(key=lambda r: r.task.game)
    command = "bash bench/run_vs_catanatron.sh " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(report(results, command.strip()))
    print(f"\nwall {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
