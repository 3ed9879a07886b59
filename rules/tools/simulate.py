"""Play bot games and print throughput and results.

python -m rules.tools.simulate --games 100 --players 4 --seed 1 --bots easy,random,random,random
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from ..ai import BOTS, play_game
from ..game import new_game, scenario_keys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.tools.simulate", description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scenario", default="base", choices=scenario_keys())
    parser.add_argument("--bots", default="random", help="one bot name for every seat, or one per seat")
    args = parser.parse_args(argv)
    names = args.bots.split(",")
    if len(names) == 1:
        names = names * args.players
    if len(names) != args.players or any(n not in BOTS for n in names):
        parser.error(f"--bots takes {args.players} names among {', '.join(BOTS)}")

    wins: Counter[int] = Counter()
    actions = turns = unfinished = 0
    started = time.perf_counter()
    for game in range(args.games):
        seed = args.seed + game
        state = new_game(scenario=args.scenario, players=args.players, seed=seed)
        bots = [BOTS[name](seed * 10 + s) for s, name in enumerate(names)]
        actions += play_game(state, bots, max_actions=100_000)
        turns += state.turn
        if state.winner is None:
            unfinished += 1
        else:
            wins[state.winner] += 1
    elapsed = time.perf_counter() - started
    n = args.games
    print(f"scenario        {args.scenario}")
    print(f"games           {n}")
    print(f"games/s         {n / elapsed:.1f}")
    print(f"actions/s       {actions / elapsed:.0f}")
    print(f"actions/game    {actions / n:.1f}")
    print(f"turns/game      {turns / n:.1f}")
    print(f"unfinished      {unfinished}")
    print("wins by seat:")
    for seat in range(args.players):
        print(f"  seat {seat} ({names[seat]:>6}) {wins[seat]:5d}  {100 * wins[seat] / n:5.1f}%")
    return 0 if not unfinished else 1


if __name__ == "__main__":
    raise SystemExit(main())
