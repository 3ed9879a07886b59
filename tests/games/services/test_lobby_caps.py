"""The caps on waiting games and on games at once hold when one account sends many requests at the same moment
(each request counted, then created: without a lock, all of them counted the same number and all got in)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from games import services
from games.models import Game, Seat
from games.services import lobby
from infra.errors import GameError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(call: Callable[[], object], n: int) -> list[object]:
    """`call` from `n` threads released together; each result or GameError code."""
    barrier = threading.Barrier(n)
    results: list[object] = []

    def run() -> None:
        barrier.wait()
        try:
            results.append(call())
        except GameError as error:
            results.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def slow_counts(monkeypatch) -> None:
    """Each cap check takes a moment, as under load: the window between counting and creating is wide."""
    check = lobby._check_game_cap

    def slow(user) -> None:
        check(user)
        time.sleep(0.2)

    monkeypatch.setattr(lobby, "_check_game_cap", slow)


def test_one_account_creating_at_once_gets_no_more_waiting_games_than_the_cap(settings, monkeypatch):
    settings.MAX_WAITING_GAMES_PER_USER = 2
    settings.RATE_LIMITS_HOURLY = {**settings.RATE_LIMITS_HOURLY, "games": 100}
    slow_counts(monkeypatch)
    alice = UserFactory()
    results = at_once(lambda: services.game_create(creator=alice), 6)
    assert Game.objects.filter(created_by=alice, status=Game.Status.WAITING).count() == 2
    assert sorted(r for r in results if isinstance(r, str)) == ["too_many_waiting"] * 4


def test_one_account_joining_many_games_at_once_stays_within_the_cap(settings, monkeypatch):
    settings.MAX_GAMES_PER_USER = 2
    slow_counts(monkeypatch)
    hosts = [UserFactory() for _ in range(5)]
    games = [services.game_create(creator=host, seat_count=3) for host in hosts]
    bob = UserFactory()
    pending = list(games)
    lock = threading.Lock()

    def join_next() -> object:
        with lock:
            game = pending.pop()
        return services.seat_join(game_id=game.pk, user=bob)

    results = at_once(join_next, 5)
    assert Seat.objects.filter(user=bob).count() == 2
    assert sorted(r for r in results if isinstance(r, str)) == ["too_many_games"] * 3
