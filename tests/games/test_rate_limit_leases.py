"""The moves' rate limit counted on Redis a few moves at a time (games/ratelimit.py), and never past the limit."""

import pytest

from games import ratelimit
from infra.errors import GameError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(monkeypatch):
    """Every addition to a counter on Redis, as (key, amount)."""
    calls = []
    real = ratelimit._count

    def spy(key, lifetime=120, amount=1):
        calls.append((key, amount))
        return real(key, lifetime, amount)

    monkeypatch.setattr(ratelimit, "_count", spy)
    return calls


def test_a_players_moves_cost_one_redis_round_trip_per_lease_not_per_move(settings, counted):
    """Issue "Live play": each move added one to the player's count on Redis, a round trip from the move's thread
    (a twentieth of a live move's server time). Now a process counts LEASE moves at once and grants them itself."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "moves": 240}
    user = UserFactory()
    for _ in range(20):
        ratelimit.check(user, "moves")
    assert len(counted) == 20 // ratelimit.LEASE_MAX
    assert all(amount == ratelimit.LEASE_MAX for _key, amount in counted)


def test_the_limit_is_exact_in_one_process(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "moves": 240}
    user = UserFactory()
    for _ in range(240):
        ratelimit.check(user, "moves")
    with pytest.raises(GameError) as caught:
        ratelimit.check(user, "moves")
    assert caught.value.code == "rate_limited" and caught.value.status == 429


def test_processes_together_never_grant_more_than_the_limit(settings):
    """Three processes (each its own store of counted moves) take turns: together they grant at most the limit,
    and refuse no more than LEASE - 1 moves early for each other process."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "moves": 240}
    user = UserFactory()
    stores = [{}, {}, {}]
    granted = 0
    for turn in range(400):
        ratelimit._leases = stores[turn % 3]
        try:
            ratelimit.check(user, "moves")
        except GameError:
            continue
        granted += 1
    ratelimit._leases = {}
    assert 240 - 2 * (ratelimit.LEASE_MAX - 1) <= granted <= 240


def test_small_limits_are_counted_one_by_one(settings, counted):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "chat": 20}
    user = UserFactory()
    for _ in range(20):
        ratelimit.check(user, "chat")
    assert len(counted) == 20 and {amount for _key, amount in counted} == {1}
    with pytest.raises(GameError):
        ratelimit.check(user, "chat")
