"""Fit the hard bot's position value (`rules/ai/value.py`) on self-play games of our engine.

    .venv-bench/bin/python bench/fit_value.py --games 3000 --jobs 2            # fit and compare, print weights
    .venv-bench/bin/python bench/fit_value.py --games 3000 --jobs 2 --write    # ... and write them to value.py

Medium bots play base games against each other (four seats, seeds S..S+N-1). At the start of every turn each
seat's features (`value.features`) are recorded with who went on to win. A conditional logit (a softmax over
the four seats of a linear score: the model `value.win_chances` evaluates) is fitted by Newton's method with a
small ridge, on the games of 4 seeds in 5; the fifth is held out. Prints the held-out log-loss and accuracy
(the future winner ranked first) of the weights in value.py now and of the new fit. The fit runs offline in
the benchmark's environment (numpy, bench/requirements.txt); the site reads the weights only (pure Python).
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from rules.ai import BOTS, choose_for, value  # noqa: E402

VALUE_PY = ROOT / "rules" / "ai" / "value.py"


def positions(seed: int) -> tuple[list[list[list[float]]], int | None]:
    """One self-play game: the features of every seat at every turn start, and the winner."""
    state = rules.new_game("base", 4, seed, {"seat_order": "fixed"})
    bots = [BOTS["medium"](seed=seed * 10 + s) for s in range(4)]
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
        rules.apply(state, seat, choose_for(state, seat, bots[seat]))
    return out, state.winner


def loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Mean negative log-likelihood and accuracy of weights `w` on positions x[n, seat, feature]."""
    scores = x @ w
    scores -= scores.max(axis=1, keepdims=True)
    logp = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
    rows = np.arange(len(y))
    return float(-logp[rows, y].mean()), float((scores.argmax(axis=1) == y).mean())


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


def write(weights: list[float]) -> None:
    text = VALUE_PY.read_text()
    body = "".join(f"    {w:.4f},\n" for w in weights)
    text, count = re.subn(
        r"WEIGHTS: tuple\[float, \.\.\.\] = \(\n.*?\n\)", f"WEIGHTS: tuple[float, ...] = (\n{body})", text, flags=re.S
    )
    if count != 1:
        raise SystemExit("WEIGHTS block not found in value.py")
    VALUE_PY.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/fit_value.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument("--write", action="store_true", help="write the new weights into rules/ai/value.py")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.map(positions, seeds, chunksize=20)
    split: dict[bool, tuple[list, list]] = {True: ([], []), False: ([], [])}
    for seed, (rows, winner) in zip(seeds, games, strict=True):
        if winner is None:
            continue
        xs, ys = split[seed % 5 == 0]
        xs.extend(rows)
        ys.extend([winner] * len(rows))
    xt, yt = np.array(split[False][0]), np.array(split[False][1])
    xh, yh = np.array(split[True][0]), np.array(split[True][1])
    took = time.perf_counter() - started
    print(f"{len(xt)} training and {len(xh)} held-out positions, {took:.0f} s", file=sys.stderr)
    old = np.array(value.WEIGHTS)
    new = fit(xt, yt, args.ridge)
    for label, w in (("value.py now", old), ("new fit", new)):
        nll, acc = loss(w, xh, yh)
        print(f"{label}: held-out log-loss {nll:.4f}, winner ranked first {100 * acc:.1f}%")
    for name, a, b in zip(value.FEATURES, old, new, strict=True):
        print(f"  {name:40} {a:8.4f} -> {b:8.4f}")
    if args.write:
        write([float(w) for w in new])
        print(f"written to {VALUE_PY.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
