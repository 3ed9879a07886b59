"""Engine benchmark: random 4-player games in this engine and in catanatron 3.2.1, alternating, one run.

    bash bench/run_engine.sh --games 200            # builds .venv-bench with catanatron, then runs
    .venv-bench/bin/python bench/engine.py --games 200 --scenarios all

Random bots choose uniformly among the legal actions (no domestic offers: our engine never lists them).
Prints one table and writes it to docs/PERFORMANCE.md between the bench:engine markers.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bench.perfdoc import write_section  # noqa: E402

MAX_ACTIONS = 100_000


@dataclass
class Tally:
    games: int = 0
    finished: int = 0
    seconds: float = 0.0
    actions: int = 0
    turns: int = 0
    legal_ns: list[int] = field(default_factory=list)

    def row(self, label: str) -> list[str]:
        legal = sorted(self.legal_ns) or [0]
        return [
            label,
            str(self.games),
            f"{self.games / self.seconds:.1f}",
            f"{self.actions / self.seconds:,.0f}",
            f"{self.actions / self.games:.0f}",
            f"{self.turns / self.games:.0f}",
            f"{100 * self.finished / self.games:.0f}%",
            f"{legal[len(legal) // 2] / 1000:.1f}",
            f"{legal[int(len(legal) * 0.9)] / 1000:.1f}",
        ]


def seats_for(scenario: str) -> int:
    if scenario == "base":
        return 4
    return max(rules.scenarios.load_map(scenario)["players"])


def play_ours(tally: Tally, seed: int, scenario: str) -> None:
    timer = time.perf_counter_ns
    state = rules.new_game(scenario=scenario, players=seats_for(scenario), seed=seed)
    rng = random.Random(seed)
    legal_ns = tally.legal_ns
    started = time.perf_counter()
    count = 0
    while count < MAX_ACTIONS:
        seats = rules.to_move(state)
        if not seats:
            break
        seat = seats[0]
        t0 = timer()
        actions = rules.legal_actions(state, seat)
        legal_ns.append(timer() - t0)
        rules.apply(state, seat, rng.choice(actions))
        count += 1
    tally.seconds += time.perf_counter() - started
    tally.games += 1
    tally.actions += count
    tally.turns += state.turn
    tally.finished += state.winner is not None


def catanatron_player():
    """Time catanatron's own legal-action generator by wrapping it where its state module calls it."""
    import catanatron.state as cstate
    from catanatron import Color, Game, RandomPlayer

    original = cstate.generate_playable_actions
    samples: list[int] = []
    timer = time.perf_counter_ns

    def timed(state):
        t0 = timer()
        result = original(state)
        samples.append(timer() - t0)
        return result

    cstate.generate_playable_actions = timed

    def play(tally: Tally, seed: int) -> None:
        random.seed(seed)
        samples.clear()
        players = [RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)]
        game = Game(players, seed=seed)
        started = time.perf_counter()
        game.play()
        tally.seconds += time.perf_counter() - started
        tally.games += 1
        tally.actions += len(game.state.actions)
        tally.turns += game.state.num_turns
        tally.finished += game.winning_color() is not None
        tally.legal_ns.extend(samples)

    return play


def table(rows: list[list[str]]) -> str:
    header = ["engine", "games", "games/s", "actions/s", "actions/game", "turns/game", "finished",
              "legal µs p50", "legal µs p90"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenarios", default="base", help="comma-separated keys, or 'all' (ours only)")
    parser.add_argument("--no-catanatron", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)

    ours = Tally()
    theirs = Tally()
    play_theirs = None
    if not args.no_catanatron:
        try:
            play_theirs = catanatron_player()
        except ImportError:
            print("catanatron is not installed here: run bash bench/run_engine.sh", file=sys.stderr)
            return 2
    for i in range(args.games):
        seed = args.seed + i
        play_ours(ours, seed, "base")
        if play_theirs is not None:
            play_theirs(theirs, seed)
    rows = [ours.row("ours (base)")]
    if play_theirs is not None:
        rows.append(theirs.row("catanatron 3.2.1"))
    scenario_rows = []
    keys = list(rules.scenarios.map_keys())
    wanted = keys if args.scenarios == "all" else [k for k in args.scenarios.split(",") if k != "base"]
    for key in wanted:
        tally = Tally()
        for i in range(args.games):
            play_ours(tally, args.seed + i, key)
        scenario_rows.append(tally.row(f"ours ({key}, {seats_for(key)} players)"))

    lines = [table(rows + scenario_rows)]
    if play_theirs is not None:
        ratio_games = (ours.games / ours.seconds) / (theirs.games / theirs.seconds)
        ratio_actions = (ours.actions / ours.seconds) / (theirs.actions / theirs.seconds)
        legal_ratio = statistics.median(theirs.legal_ns) / statistics.median(ours.legal_ns)
        lines.append("")
        lines.append(
            f"Ratios ours / catanatron: games/s ×{ratio_games:.2f}, actions/s ×{ratio_actions:.2f}; "
            f"legal-action median {legal_ratio:.1f}× faster."
        )
    output = "\n".join(lines)
    print(output)
    if not args.no_write:
        command = "bash bench/run_engine.sh " + " ".join(argv if argv is not None else sys.argv[1:])
        write_doc(output, command.strip())
    return 0


def write_doc(output: str, command: str) -> None:
    machine = f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.machine()}"
    write_section(
        "engine",
        "## Engine: random games, ours and catanatron\n\n"
        f"Command: `{command}` — {datetime.date.today().isoformat()}, {machine}.\n"
        "Both engines play complete games with random bots (uniform over legal actions; no domestic\n"
        "offers), alternating game by game in one process. `legal µs` times each legal-action generation\n"
        "(`rules.legal_actions`; catanatron's `generate_playable_actions`). catanatron stops games at 1000 turns.\n"
        "Rows for Seafarers maps are ours only (catanatron plays the base game alone).\n\n"
        f"{output}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
