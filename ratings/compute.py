"""The rating arithmetic, from the OpenSkill library (Weng–Lin Bayesian ranking, Plackett–Luce model) with its
default parameters: nothing hand-written beyond putting each seat in a team of one."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


def ordinal(mu: float, sigma: float) -> float:
    """The conservative figure shown as the rating: mu - 3 sigma (what openskill's `ordinal()` gives)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each seat, each a team of one, from their (mu, sigma) before and their places (1 best,
    ties equal)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    result = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in result]
