"""Fit the hard bot's position value (`rules/ai/value.py`) on self-play games of our engine.

    .venv-bench/bin/python bench/fit_value.py --games 3000 --jobs 2            # fit and compare, print weights
    .venv-bench/bin/python bench/fit_value.py --games 3000 --jobs 2 --write    # ... and write value_weights.py
    .venv-bench/bin/python bench/fit_value.py --games 8000 --styles --hidden 16 --data styled.npz   # a network
    .venv-bench/bin/python bench/fit_value.py --games 1500 --against value --styles --data vsvalue.npz  # vs catanatron

Medium bots play base games against each other (four seats, seeds S..S+N-1); with `--styles` each seat is a
medium bot of a style of its own (its development-card goal drawn per game, some random moves: `StyledMedium`);
with `--against value|alphabeta` our bot sits in seat S mod 4 only and catanatron's bots in the other three
(`catanatron_bridge.py`, installed as for `run_vs_catanatron.sh`): the positions of the games the hard bot meets.
At the start of every turn each seat's features (`value.features`) are recorded with who went on to win
(`--data` keeps them in an .npz and reads them back). A conditional logit (a softmax over the four seats of a
linear score: the model `value.win_chances` evaluates) is fitted by Newton's method with a small ridge, on the
games of 4 seeds in 5; the fifth is held out. `--hidden N` adds N tanh units to the score, trained with Adam
from the linear fit (`bench/value_net.py`). Prints the held-out log-loss and accuracy (the future winner
ranked first) of the weights in rules/ai/value_weights.py now, of the linear fit and of the new fit. The fit
runs offline in the benchmark's environment (numpy, bench/requirements.txt); the site reads the weights only
(pure Python).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import value_net  # noqa: E402

import rules  # noqa: E402
from rules.ai import BOTS, choose_for, value, value_weights  # noqa: E402
from rules.ai.medium import decide, observe_view  # noqa: E402

WEIGHTS_PY = ROOT / "rules" / "ai" / "value_weights.py"


class StyledMedium:
    """A medium bot with a style of its own for the population games (`--styles`): its development-card goal
    (`Obs.card_goal`, medium's 1.2) drawn per game, and a small share of random legal actions, so the fit sees
    card-heavy and city-heavy seats meet and learns what wins, not what one policy's games look like."""

    name = "medium"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.card_goal = self.rng.uniform(0.4, 2.6)
        self.explore = self.rng.choice((0.0, 0.03))

    def choose(self, view: dict, legal: list[dict]) -> dict:
        if len(legal) == 1 and legal[0]["type"] not in ("end_turn", "discard", "choose_gold"):
            return legal[0]
        if self.rng.random() < self.explore and all(a["type"] not in ("discard", "choose_gold") for a in legal):
            return self.rng.choice(legal)
        o = observe_view(view, None)
        o.card_goal = self.card_goal
        return decide(o, legal, self.rng)


STYLES = False  # set by --styles in the parent, passed to the workers by fork
AGAINST = ""  # set by --against: catanatron's bots in three seats (bench/catanatron_bridge.py), passed by fork


def positions(seed: int) -> tuple[list[list[list[float]]], int | None]:
    """One self-play game: the features of every seat at every turn start, and the winner."""
    state = rules.new_game("base", 4, seed, {"seat_order": "fixed"})
    make = StyledMedium if STYLES else BOTS["medium"]
    bots = [make(seed=seed * 10 + s) for s in range(4)]
    others: dict = {}  # with --against, catanatron's bots by seat (they read the whole state, as in the benchmark)
    players: list = []
    if AGAINST:
        # our bot in seat seed mod 4, catanatron's in the others: positions of the games the hard bot meets
        import catanatron_bridge  # here: it needs catanatron, which only --against asks for

        others, players = catanatron_bridge.seats_for(AGAINST, 4, seed)
        del others[seed % 4]
    out: list[list[list[float]]] = []
    last_turn = -1
    for _ in range(20_000):
        seats = rules.to_move(state)
        if not seats:
            break
        if state.phase == "roll" and state.turn != last_turn:
            last_turn = state.turn
            out.append(value.all_features(state))
        seat = seats[0]
        action = others[seat].act(state, players) if seat in others else choose_for(state, seat, bots[seat])
        rules.apply(state, seat, action)
    return out, state.winner


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 30) -> np.ndarray:
    n, seats, f = x.shape
    w = np.zeros(f)
    rows = np.arange(n)
    for _ in range(steps):
        s = x @ w
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("ns,nsf->nf", p, x)
        grad = (x[rows, y] - mean).sum(axis=0) - ridge * n * w
        centred = x - mean[:, None, :]
        hess = -np.einsum("ns,nsf,nsg->fg", p, centred, centred) - ridge * n * np.eye(f)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def games_data(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every turn start's features [position, seat, feature], the winner and the game's seed of each."""
    if args.data and Path(args.data).exists():
        saved = np.load(args.data)
        return saved["x"].astype(float), saved["y"], saved["g"]
    seeds = range(args.seed, args.seed + args.games)
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.map(positions, seeds, chunksize=20)
    xs: list = []
    ys: list[int] = []
    gs: list[int] = []
    for seed, (rows, winner) in zip(seeds, games, strict=True):
        if winner is not None:
            xs.extend(rows)
            ys.extend([winner] * len(rows))
            gs.extend([seed] * len(rows))
    x, y, g = np.array(xs, dtype=np.float32), np.array(ys), np.array(gs)
    if args.data:
        np.savez_compressed(args.data, x=x, y=y, g=g)
    return x.astype(float), y, g


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/fit_value.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument("--write", action="store_true", help="write the new weights to rules/ai/value_weights.py")
    parser.add_argument("--hidden", type=int, default=0, help="tanh units beside the linear score (0: linear)")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--data", help="an .npz of the games' positions: read when it exists, else written")
    parser.add_argument("--styles", action="store_true", help="population games: each seat a style (StyledMedium)")
    parser.add_argument(
        "--against", choices=("value", "alphabeta"), help="our bot in one seat, catanatron's in the other three"
    )
    args = parser.parse_args(argv)
    global STYLES, AGAINST
    STYLES, AGAINST = args.styles, args.against or ""
    started = time.perf_counter()
    x, y, g = games_data(args)
    held = g % 5 == 0
    xt, yt, xh, yh = x[~held], y[~held], x[held], y[held]
    took = time.perf_counter() - started
    print(f"{len(xt)} training and {len(xh)} held-out positions, {took:.0f} s", file=sys.stderr)
    old = value_net.read(value_weights)
    lin = fit(xt, yt, args.ridge)
    new = value_net.train(xt, yt, lin, args.hidden, args.epochs) if args.hidden else value_net.linear(lin)
    held_out = {}
    for label, p in (("value_weights.py now", old), ("linear fit", value_net.linear(lin)), ("new fit", new)):
        held_out[label] = nll, acc = value_net.loss(p, xh, yh)
        print(f"{label}: held-out log-loss {nll:.4f}, winner ranked first {100 * acc:.1f}%")
    for name, a, b in zip(value.FEATURES, old["v"], new["v"], strict=True):
        print(f"  {name:40} {a:8.4f} -> {b:8.4f} (linear part)")
    if args.write:
        how = (
            f"bench/fit_value.py --games {args.games} --seed {args.seed}{' --styles' if args.styles else ''}"
            f"{f' --against {args.against}' if args.against else ''}"
            f"{f' --data {args.data}' if args.data else ''} --hidden {args.hidden} --epochs {args.epochs}:"
            f" {len(xt)} training positions; held-out log-loss"
            f" {held_out['new fit'][0]:.4f} on {len(xh)} (the linear fit alone: {held_out['linear fit'][0]:.4f})."
        )
        value_net.write(new, WEIGHTS_PY, how)
        print(f"written to {WEIGHTS_PY.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
