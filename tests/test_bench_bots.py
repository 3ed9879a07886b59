"""bench/bots.py plays the hard bot against catanatron's bots with `--against` (issue 43): it hands over to
bench/run_vs_catanatron.sh in the benchmark's own environment, with its options and what follows `--`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench import bots

ROOT = Path(__file__).resolve().parents[1]
BENCH_PYTHON = ROOT / ".venv-bench" / "bin" / "python"


class Handed(Exception):
    pass


def test_against_hands_over_to_the_catanatron_benchmark_with_its_options(monkeypatch) -> None:
    seen: list[list[str]] = []

    def execvp(file: str, command: list[str]) -> None:
        seen.append(command)
        raise Handed

    monkeypatch.setattr(bots.os, "execvp", execvp)
    with pytest.raises(Handed):
        bots.main(["--against", "alphabeta", "--games", "60", "--time-limit", "1", "--jobs", "2", "--", "--log", "a"])
    (command,) = seen
    assert command[:2] == ["bash", str(ROOT / "bench" / "run_vs_catanatron.sh")]
    assert command[2:] == [
        "--opponent", "alphabeta", "--games", "60", "--time-limit", "1", "--seed", "1", "--jobs", "2", "--log", "a",
    ]  # fmt: skip


def test_against_refuses_an_unknown_opponent(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bots.main(["--against", "stockfish"])
    assert exit_.value.code == 2
    assert "invalid choice: 'stockfish'" in capsys.readouterr().err


def test_arguments_after_the_separator_are_refused_without_against(capsys) -> None:
    """What follows `--` is the catanatron benchmark's: without --against it is an error, not silently dropped."""
    with pytest.raises(SystemExit) as exit_:
        bots.main(["--games", "2", "--", "--hero", "medium"])
    assert exit_.value.code == 2
    assert "arguments after -- go to --against's benchmark only: --hero medium" in capsys.readouterr().err


def _players_installed() -> bool:
    if not BENCH_PYTHON.exists():
        return False
    probe = "import catanatron_experimental.machine_learning.players.minimax"
    return subprocess.run([str(BENCH_PYTHON), "-c", probe], capture_output=True).returncode == 0


@pytest.mark.skipif(not _players_installed(), reason="catanatron's players are not installed in .venv-bench")
def test_against_value_plays_a_game_and_reports_it() -> None:
    done = subprocess.run(
        [sys.executable, "bench/bots.py", "--against", "value", "--games", "1", "--time-limit", "0.01", "--seed", "5",
         "--", "--hero", "medium"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "| medium | 3 × value | 0.01 | 1 |" in done.stdout
    assert "Where games are won and lost" in done.stdout


@pytest.mark.skipif(not _players_installed(), reason="catanatron's players are not installed in .venv-bench")
def test_fit_value_against_catanatron_fits_on_their_games(tmp_path: Path) -> None:
    """`bench/fit_value.py --against value`: positions of games with catanatron's bots in three seats, kept in
    --data and fitted (the held-out fifth is the game of seed 5,000,000)."""
    data = tmp_path / "games.npz"
    done = subprocess.run(
        [str(BENCH_PYTHON), "bench/fit_value.py", "--against", "value", "--games", "3", "--seed", "5000000",
         "--data", str(data)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "linear fit: held-out log-loss" in done.stdout
    probe = (  # numpy lives in .venv-bench only
        "import sys, numpy as np; d = np.load(sys.argv[1]);"
        "print(sorted(set(d['g'].tolist())), d['x'].shape[1:], len(d['x']) == len(d['y']), len(d['x']) > 100)"
    )
    read = subprocess.run([str(BENCH_PYTHON), "-c", probe, str(data)], capture_output=True, text=True, check=True)
    assert read.stdout.strip() == "[5000000, 5000001, 5000002] (4, 28) True True"
