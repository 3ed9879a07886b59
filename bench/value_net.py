"""The hard bot's position value as a small network, fitted offline with numpy (`bench/fit_value.py`).

Each seat's score is a linear part plus `hidden` tanh units over the same features; a softmax over the seats
gives each one's chance to win (the conditional logit of `rules/ai/value.py`, with a nonlinear score). Trained
with Adam on standardised features, the linear part started from the Newton fit; the standardisation is folded
back into the weights, so the site scores raw features in pure Python (`value.seat_score`). numpy has no
network trainer and one hidden layer needs forty lines; a framework (torch) would weigh a gigabyte in the
benchmark's environment for them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import ModuleType

import numpy as np

Params = dict[str, np.ndarray]


def scores(p: Params, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scores x[n, seat, feature] -> [n, seat], and the hidden units' outputs."""
    h = np.tanh(x @ p["W1"] + p["b1"])
    return x @ p["v"] + h @ p["w2"], h


def loss(p: Params, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Mean negative log-likelihood of the winners `y`, and how often the winner is ranked first."""
    s, _ = scores(p, x)
    s = s - s.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(y)), y].mean()), float((s.argmax(axis=1) == y).mean())


def linear(w: np.ndarray) -> Params:
    """A linear fit as a network without hidden units."""
    f = len(w)
    return {"v": np.asarray(w, dtype=float), "W1": np.zeros((f, 0)), "b1": np.zeros(0), "w2": np.zeros(0)}


def read(net: ModuleType) -> Params:
    """The weights a module holds (`rules/ai/value_weights.py`), as a network numpy scores."""
    p = linear(np.array(net.LINEAR))
    if net.HIDDEN:
        p.update(W1=np.array(net.HIDDEN).T, b1=np.array(net.HIDDEN_BIAS), w2=np.array(net.OUTPUT))
    return p


def train(
    x: np.ndarray, y: np.ndarray, start: np.ndarray, hidden: int = 16, epochs: int = 5, seed: int = 0
) -> Params:
    """Adam on mini-batches of 512 positions, lr 3e-3, a small L2; `start` is the linear fit."""
    rng = np.random.default_rng(seed)
    flat = x.reshape(-1, x.shape[2])
    mu, sd = flat.mean(axis=0), flat.std(axis=0) + 1e-6
    z = (x - mu) / sd
    n, _, f = z.shape
    p = {
        "W1": rng.normal(0, 1 / np.sqrt(f), (f, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, 0.1, hidden),
        "v": np.asarray(start, dtype=float) * sd,
    }
    m = {k: np.zeros_like(a) for k, a in p.items()}
    v2 = {k: np.zeros_like(a) for k, a in p.items()}
    step, lr, l2 = 0, 3e-3, 1e-5
    for _ in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n, 512):
            xb, yb = z[order[i : i + 512]], y[order[i : i + 512]]
            s, h = scores(p, xb)
            s = s - s.max(axis=1, keepdims=True)
            g = np.exp(s)
            g /= g.sum(axis=1, keepdims=True)
            g[np.arange(len(yb)), yb] -= 1
            g /= len(yb)  # d loss / d score, [batch, seat]
            dh = g[:, :, None] * p["w2"] * (1 - h**2)
            grads = {
                "v": np.einsum("bs,bsf->f", g, xb),
                "w2": np.einsum("bs,bsh->h", g, h),
                "W1": np.einsum("bsf,bsh->fh", xb, dh),
                "b1": dh.sum(axis=(0, 1)),
            }
            step += 1
            for k in p:
                grad = grads[k] + l2 * p[k]
                m[k] = 0.9 * m[k] + 0.1 * grad
                v2[k] = 0.999 * v2[k] + 0.001 * grad**2
                p[k] -= lr * (m[k] / (1 - 0.9**step)) / (np.sqrt(v2[k] / (1 - 0.999**step)) + 1e-8)
    # Back to raw features: (x - mu) / sd @ W1 = x @ (W1 / sd) - (mu / sd) @ W1; the linear part's constant
    # is the same for every seat and cancels in the softmax.
    return {"W1": p["W1"] / sd[:, None], "b1": p["b1"] - (mu / sd) @ p["W1"], "w2": p["w2"], "v": p["v"] / sd}


def write(p: Params, path: Path, how: str) -> None:
    """The weights as a Python module `rules/ai/value.py` imports (pure Python at play time)."""

    def row(values: np.ndarray, indent: str) -> str:
        numbers = [f"{float(a):.5f}" for a in values]
        lines = [", ".join(numbers[i : i + 10]) + "," for i in range(0, len(numbers), 10)]
        return "".join(f"{indent}{line}\n" for line in lines)

    hidden = "".join(f"    (\n{row(p['W1'][:, j], '        ')}    ),\n" for j in range(p["W1"].shape[1]))
    text = (
        f'"""The hard bot\'s position value, written by bench/fit_value.py: do not edit by hand.\n\n'
        f'{textwrap.fill(how, 116)}\n"""\n\n'
        f"LINEAR: tuple[float, ...] = (\n{row(p['v'], '    ')})\n"
        f"HIDDEN: tuple[tuple[float, ...], ...] = (\n{hidden})\n"
        f"HIDDEN_BIAS: tuple[float, ...] = (\n{row(p['b1'], '    ')})\n"
        f"OUTPUT: tuple[float, ...] = (\n{row(p['w2'], '    ')})\n"
    )
    path.write_text(text)
