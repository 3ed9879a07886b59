"""The value network's trainer (bench/value_net.py, issue 43): what it writes, the site reads in pure Python and
scores exactly as numpy trained it, standardisation folded in; and training lowers the loss on a position set
whose winner a nonlinear rule decides. numpy lives in .venv-bench only (the site reads the weights): skipped where
it is not installed; `run_all` runs the tests in .venv-bench without pytest's runner."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

import pytest

from rules.ai import value

np = pytest.importorskip("numpy")

from bench import value_net  # noqa: E402


def _positions(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """n positions of four seats with the value's feature count; the winner the seat whose first two features
    are both large (an interaction no linear score holds), features on different scales as the real ones."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4, len(value.FEATURES))) * np.linspace(0.2, 5, len(value.FEATURES))
    score = np.minimum(x[:, :, 0] / 0.2, x[:, :, 1] / 0.37) * 2 + rng.gumbel(size=(n, 4))
    return x, score.argmax(axis=1)


def test_written_weights_score_in_pure_python_as_numpy_does() -> None:
    x, y = _positions(600)
    p = value_net.train(x, y, np.zeros(x.shape[2]), hidden=4, epochs=1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "weights.py"
        value_net.write(p, path, "a test")
        spec = importlib.util.spec_from_file_location("weights", path)
        net = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(net)
    expected, _ = value_net.scores(p, x[:20])
    got = [[value.seat_score(list(row), net) for row in seats] for seats in x[:20]]
    assert np.allclose(got, expected, atol=0.02), (got[0], expected[0])


def test_hidden_units_learn_what_a_linear_score_cannot() -> None:
    x, y = _positions(4000)
    xh, yh = _positions(1000, seed=2)
    plain = value_net.linear(np.zeros(x.shape[2]))
    trained = value_net.train(x, y, np.zeros(x.shape[2]), hidden=8, epochs=4)
    assert value_net.loss(trained, xh, yh)[0] < value_net.loss(plain, xh, yh)[0] - 0.1


def run_all() -> None:
    test_written_weights_score_in_pure_python_as_numpy_does()
    test_hidden_units_learn_what_a_linear_score_cannot()
    print("ok")


if __name__ == "__main__":
    run_all()
