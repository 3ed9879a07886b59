"""Engine benchmark: random 4-player games in this engine (`rules`) and in catanatron 3.2.1, in one run.

    bash bench/run_engine.sh --games 200                   # builds .venv-bench (catanatron), then runs
    .venv-bench/bin/python bench/engine.py --games 200     # the same, once .venv-bench exists
    .venv-bench/bin/python bench/engine.py --games 20 --engines catanatron --no-write
    .venv-bench/bin/python bench/engine.py --games 50 --scenario base  # the base game only

Both engines play complete games with random bots: each decision is uniform over the legal actions (no
domestic trade offers; catanatron's RandomPlayer picks uniformly among its playable actions). On the base
game the engines alternate game by game; other scenarios are ours only (catanatron plays the base game
alone). Each call to the legal-action generator is timed on its own (`rules.legal_actions`; catanatron's
`catanatron.models.actions.generate_playable_actions`, which its State calls after every action).
Prints one table and writes it to docs/PERFORMANCE.md between the bench:engine markers (--no-write skips).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import random
import shlex
import sys
import textwrap
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `import rules` from the work tree, nothing installed

from bench.perfdoc import write_section  # noqa: E402

ENGINES = ("ours", "catanatron")
CATANATRON_VERSION = "3.2.1"
MAX_ACTIONS = 100_000  # per game of ours; a game that reaches it counts as unfinished
COLUMNS = [
    "engine",
    "scenario",
    "players",
    "games",
    "games/s",
    "actions/s",
    "actions/game",
    "turns/game",
    "finished",
    "legal µs p50",
    "legal µs p90",
]


@dataclass
class Tally:
    """What one engine did on one scenario, summed over its games."""

    engine: str
    scenario: str
    players: int
    games: int = 0
    finished: int = 0  # games with a winner
    seconds: float = 0.0  # wall time of whole games, set-up and legal-action calls included
    actions: int = 0
    turns: int = 0
    legal_ns: list[int] = field(default_factory=list)

    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def legal_us(self, q: float) -> float:
        """The q-quantile (nearest rank) of the legal-action call times, in µs."""
        if not self.legal_ns:
            return 0.0
        ordered = sorted(self.legal_ns)
        rank = min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.5) - 1))
        return ordered[rank] / 1000

    def row(self) -> list[str]:
        games = max(self.games, 1)
        return [
            self.engine if self.engine == "ours" else f"catanatron {CATANATRON_VERSION}",
            self.scenario,
            str(self.players),
            str(self.games),
            f"{self.games_per_s():.1f}",
            f"{self.actions_per_s():,.0f}",
            f"{self.actions / games:.0f}",
            f"{self.turns / games:.0f}",
            f"{100 * self.finished / games:.0f}%",
            f"{self.legal_us(0.5):.1f}",
            f"{self.legal_us(0.9):.1f}",
        ]


Player = Callable[[Tally, int], None]


def seats_for(scenario: str) -> int:
    """Four players where the scenario allows them, else its largest count."""
    if scenario == "base":
        return 4
    from rules.scenarios import family_maps, load_map, map_keys

    allowed = load_map(scenario)["players"] if scenario in map_keys() else sorted(family_maps()[scenario])
    return 4 if 4 in allowed else max(allowed)


def ours_player(scenario: str) -> Player:
    """Play one random game in our engine per call, adding it to a tally."""
    import rules

    new_game, to_move, legal_actions, apply = rules.new_game, rules.to_move, rules.legal_actions, rules.apply
    players = seats_for(scenario)
    clock, timer = time.perf_counter, time.perf_counter_ns

    def play(tally: Tally, seed: int) -> None:
        rng = random.Random(seed)
        choice = rng.choice
        legal_ns = tally.legal_ns
        count = 0
        started = clock()
        state = new_game(scenario=scenario, players=players, seed=seed, options={})
        while count < MAX_ACTIONS:
            seats = to_move(state)
            if not seats:
                break
            seat = seats[0]
            t0 = timer()
            actions = legal_actions(state, seat)
            legal_ns.append(timer() - t0)
            action = choice(actions)
            if action["type"] == "offer_trade":  # never listed; if it were, re-draw among the others
                action = choice([a for a in actions if a["type"] != "offer_trade"])
            apply(state, seat, action)
            count += 1
        tally.seconds += clock() - started
        tally.games += 1
        tally.actions += count
        tally.turns += state.turn
        tally.finished += state.winner is not None

    return play


def catanatron_player() -> Player:
    """Play one game of four catanatron RandomPlayers per call, timing its legal-action generator.

    catanatron's State recomputes `state.playable_actions` after every action by calling
    `generate_playable_actions(state)`, imported by name into `catanatron.state`; the timer wraps it there.
    Raises ImportError when catanatron is not installed.
    """
    import catanatron.state as cstate
    from catanatron import Color, Game, RandomPlayer
    from catanatron.models.actions import generate_playable_actions

    samples: list[int] = []
    timer, clock = time.perf_counter_ns, time.perf_counter

    def timed(state: Any) -> Any:
        t0 = timer()
        result = generate_playable_actions(state)
        samples.append(timer() - t0)
        return result

    cstate.generate_playable_actions = timed
    colors = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)

    def play(tally: Tally, seed: int) -> None:
        samples.clear()
        started = clock()
        game = Game([RandomPlayer(c) for c in colors], seed=seed)  # seeds `random`, which RandomPlayer uses
        game.play()  # until a winner or catanatron's TURNS_LIMIT
        tally.seconds += clock() - started
        tally.games += 1
        tally.actions += len(game.state.actions)
        # num_turns also counts the 2*(n-1) hand-overs of set-up and not the turn being played: make it
        # main-phase turns counting the last one, as ours counts them (state.turn).
        tally.turns += game.state.num_turns - 2 * (len(colors) - 1) + 1
        tally.finished += game.winning_color() is not None
        tally.legal_ns.extend(samples)

    return play


def run_games(players: list[tuple[Player, Tally]], games: int, seed: int) -> None:
    """Game i uses seed + i in every engine; the engines take turns game by game."""
    for i in range(games):
        for play, tally in players:
            gc.collect()  # one engine's garbage is not collected in the other's timed game
            try:
                play(tally, seed + i)
            except Exception as exc:
                traceback.print_exc()
                raise SystemExit(
                    f"{tally.engine} ({tally.scenario}) failed on seed {seed + i}: {exc!r}"
                ) from exc


def table(tallies: list[Tally]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(t.row()) + " |" for t in tallies]
    return "\n".join(lines)


def ratios(ours: Tally, theirs: Tally) -> str:
    """Ours / catanatron per column: above 1 is faster for throughput, below 1 is faster for latency."""

    def ratio(a: float, b: float) -> str:
        return f"×{a / b:.2f}" if b else "n/a"

    g_ours, g_theirs = max(ours.games, 1), max(theirs.games, 1)
    cells = [
        "ours / catanatron",
        "base",
        "",
        "",
        ratio(ours.games_per_s(), theirs.games_per_s()),
        ratio(ours.actions_per_s(), theirs.actions_per_s()),
        ratio(ours.actions / g_ours, theirs.actions / g_theirs),
        ratio(ours.turns / g_ours, theirs.turns / g_theirs),
        "",
        ratio(ours.legal_us(0.5), theirs.legal_us(0.5)),
        ratio(ours.legal_us(0.9), theirs.legal_us(0.9)),
    ]
    return "| " + " | ".join(cells) + " |"


def machine() -> str:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = " (" + " ".join(line.split(":", 1)[1].split()) + ")"
                break
    except OSError:
        pass
    system = f"{platform.system()} {platform.machine()}"
    return f"nproc {cpus}{model}, {system}, Python {platform.python_version()}"


def command_line(argv: list[str]) -> str:
    """The command as typed: run_engine.sh says so through BENCH_LAUNCHER, else the interpreter and script."""
    launcher = os.environ.get("BENCH_LAUNCHER")
    if not launcher:
        python = Path(sys.executable)
        script = Path(sys.argv[0] if sys.argv[0].endswith(".py") else __file__).absolute()
        launcher = " ".join(
            os.path.relpath(p, ROOT) if p.is_relative_to(ROOT) else str(p) for p in (python, script)
        )
    return " ".join([launcher, shlex.join(argv)]).strip()


def parse_scenarios(value: str) -> list[str]:
    if value == "all":
        from rules.scenarios import map_keys

        return ["base", *map_keys()]
    keys = [k.strip() for k in value.split(",") if k.strip()]
    return keys or ["base"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bench/engine.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per engine and scenario (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="game i uses seed S+i in each engine (S >= 1)")
    parser.add_argument(
        "--scenario",
        "--scenarios",
        dest="scenario",
        default="all",
        help="a scenario key, a comma-separated list, or 'all' (base and every map, the default). "
        "catanatron plays base only",
    )
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated, from: ours,catanatron")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/PERFORMANCE.md alone")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = sorted(set(engines) - set(ENGINES))
    if unknown or not engines:
        parser.error(f"--engines takes a comma-separated list of {', '.join(ENGINES)}; got {args.engines!r}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.seed < 1:
        parser.error("--seed must be at least 1 (catanatron takes seed 0 as 'no seed')")
    if "ours" not in engines and args.scenario not in ("base", "all"):
        parser.error("catanatron plays the base game only: add ours to --engines for other scenarios")
    scenarios = parse_scenarios(args.scenario) if "ours" in engines else ["base"]
    if "catanatron" in engines and "base" not in scenarios:
        print("note: catanatron plays the base game only; it sits this run out", file=sys.stderr)

    tallies: list[Tally] = []
    pair: dict[str, Tally] = {}
    for scenario in scenarios:
        players: list[tuple[Player, Tally]] = []
        for engine in engines:
            if engine == "catanatron":
                if scenario != "base":
                    continue
                try:
                    play = catanatron_player()
                except ImportError as exc:
                    hint = "run bash bench/run_engine.sh, which builds .venv-bench"
                    print(f"catanatron is not importable here ({exc}): {hint}", file=sys.stderr)
                    return 2
                tally = Tally("catanatron", "base", 4)
            else:
                play = ours_player(scenario)
                tally = Tally("ours", scenario, seats_for(scenario))
            if scenario == "base":
                pair[engine] = tally
            players.append((play, tally))
        if not players:
            continue
        started = time.perf_counter()
        run_games(players, args.games, args.seed)
        names = " and ".join(t.engine for _, t in players)
        print(
            f"{scenario}: {args.games} games each for {names} in {time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
        tallies += [t for _, t in players]

    lines = table(tallies).splitlines()
    if "ours" in pair and "catanatron" in pair:  # the ratio row right under the base rows it compares
        at = 2 + max(tallies.index(pair["ours"]), tallies.index(pair["catanatron"])) + 1
        lines.insert(at, ratios(pair["ours"], pair["catanatron"]))
    output = "\n".join(lines)
    print(output)
    if not args.no_write:
        write_doc(output, command_line(argv), scenarios)
        print(f"written to {Path('docs/PERFORMANCE.md')} (bench:engine section)", file=sys.stderr)
    return 0


def write_doc(output: str, command: str, scenarios: list[str]) -> None:
    """Replace (or append) the bench:engine section of docs/PERFORMANCE.md."""
    today = datetime.date.today().isoformat()
    notes = (
        "Random bots play complete games: each decision is uniform over the legal actions, with no "
        "domestic trade offers (catanatron's `RandomPlayer`, which picks uniformly among its playable "
        "actions). Game i uses seed S+i in each engine, and the engines alternate game by game in one "
        "process. games/s and actions/s time whole games (set-up, every call, the bot's choice); `legal µs` "
        "is the median and p90 of every single legal-action call in those games, timed with "
        "`perf_counter_ns`: `rules.legal_actions`, and catanatron's `generate_playable_actions` (which its "
        "State calls after each action to fill `playable_actions`). turns/game counts main-phase turns, the "
        "last one included (catanatron's `num_turns` less its 2×(players−1) set-up hand-overs, plus one). "
        "finished = games with a winner: catanatron stops at 1000 turns (`TURNS_LIMIT`), ours at "
        f"{MAX_ACTIONS:,} actions. In the ratio row, above 1 is faster for throughput, below 1 is faster "
        "for latency. Timing costs both engines the same per call: two `perf_counter_ns` and one append "
        "(and for catanatron the call of the wrapper around its generator). Ours replays a seed exactly; "
        "catanatron replays it within one process only (its games differ from one process to the next)."
    )
    if any(t != "base" for t in scenarios):
        notes += " Rows for scenarios other than base are ours only: catanatron plays the base game alone."
    body = (
        "## Engine: random games, ours and catanatron\n\n"
        f"- Command: `{command}`\n"
        f"- Date: {today}\n"
        f"- Machine: {machine()}\n\n" + textwrap.fill(notes, 110) + "\n\n" + output
    )
    write_section("engine", body)


if __name__ == "__main__":
    raise SystemExit(main())
