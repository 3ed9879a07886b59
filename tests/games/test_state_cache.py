"""The decoded position a process keeps for its next move of a game (games/store/state_cache.py): used only while the
stored snapshot is the one it stored, never after another process moved the game or anything rewrote it."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

import rules
from games import services
from games.models import Game, Move
from games.services.interventions import replay
from games.store import state_cache
from infra.errors import GameError
from tests.games.helpers import started_game

_load = rules.load  # the tests' own reads of the position, never counted by `loads`

# The cache keeps a state only once its move has committed: these tests commit.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_cache():
    state_cache.forget()
    yield
    state_cache.forget()


@pytest.fixture
def loads(monkeypatch):
    """How many snapshots the moves decoded."""
    calls = []
    real = rules.load

    def counting(data, owned=False):
        calls.append(1)
        return real(data, owned)

    monkeypatch.setattr(rules, "load", counting)
    return calls


def _move(game: Game, users: list) -> int:
    """The first legal move of whoever is to move, by its user; the new seq."""
    game.refresh_from_db()
    state = _load(game.state)
    seat = rules.to_move(state)[0]
    action = rules.legal_actions(state, seat)[0]
    return services.move_submit(game_id=game.pk, user=users[seat], action=action, expected_seq=game.seq).seq


def _stored_digest(game: Game) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT md5(state::text) FROM games_game WHERE id = %s", [game.pk])
        return cursor.fetchone()[0]


def _assert_log_replays_to_the_snapshot(game: Game) -> None:
    game.refresh_from_db()
    replayed, log = replay(game, game.seq)
    assert [entry["seq"] for entry in log] == list(range(1, game.seq + 1))  # no move lost
    assert rules.dump(replayed) == rules.dump(_load(game.state))


def test_the_kept_digest_is_the_stored_snapshots_md5():
    game, users = started_game(humans=4, bots=0)
    _move(game, users)
    assert state_cache.known(game.pk) == _stored_digest(game)


def test_the_next_move_in_this_process_decodes_no_snapshot(loads):
    game, users = started_game(humans=4, bots=0)
    _move(game, users)
    loads.clear()
    _move(game, users)
    _move(game, users)
    assert loads == []
    assert state_cache.known(game.pk) == _stored_digest(game)
    _assert_log_replays_to_the_snapshot(game)


def test_the_held_state_is_the_stored_one_move_after_move():
    game, users = started_game(humans=4, bots=0)
    for _ in range(40):
        _move(game, users)
        game.refresh_from_db()
        held = state_cache._entries[game.pk][1]
        assert rules.dump(held) == rules.dump(_load(game.state))
    _assert_log_replays_to_the_snapshot(game)


def test_after_another_process_moved_the_game_the_stored_snapshot_is_used(loads):
    game, users = started_game(humans=4, bots=0)
    _move(game, users)
    ours = state_cache._entries[game.pk]  # what this process holds at seq 1
    # Another process (its own cache: this one's entry out of sight) makes the next move.
    state_cache.forget()
    _move(game, users)
    state_cache.keep(game.pk, *ours)  # this process still holds seq 1's position
    loads.clear()
    game.refresh_from_db()
    assert game.seq == 2
    _move(game, users)  # legal only in seq 2's position; the stale one would be refused or stored wrongly
    assert loads == [1]
    _assert_log_replays_to_the_snapshot(game)


def test_a_snapshot_rewritten_at_the_same_seq_is_read_again(loads):
    game, users = started_game(humans=4, bots=0)
    _move(game, users)
    game.refresh_from_db()
    changed = _load(game.state)
    changed.hands[1][0] += 3  # seat 1 holds three more of the first resource, written behind the move path's back
    Game.objects.filter(pk=game.pk).update(state=rules.dump(changed))
    loads.clear()
    _move(game, users)
    assert loads == [1]
    game.refresh_from_db()
    assert _load(game.state).hands[1][0] == changed.hands[1][0]


def test_a_refused_move_leaves_no_state_behind():
    game, users = started_game(humans=4, bots=0)
    _move(game, users)
    with pytest.raises(GameError):
        services.move_submit(game_id=game.pk, user=users[0], action={"type": "nonsense"})
    assert state_cache.known(game.pk) is None
    _move(game, users)
    _assert_log_replays_to_the_snapshot(game)


def test_a_move_inside_an_outer_transaction_keeps_nothing():
    game, users = started_game(humans=4, bots=0)
    with transaction.atomic():
        _move(game, users)
    assert state_cache.known(game.pk) is None


def test_a_held_state_taken_by_a_failed_move_is_read_from_the_row(loads, monkeypatch):
    game, users = started_game(humans=4, bots=0)
    _move(game, users)
    digest = state_cache.known(game.pk)
    # Between this move's look at the cache and its lock, another thread took the entry and its move failed.
    real_known = state_cache.known

    def known_then_lost(game_id):
        held = real_known(game_id)
        state_cache.take(game_id, digest)
        return held

    loads.clear()
    monkeypatch.setattr(state_cache, "known", known_then_lost)
    _move(game, users)
    assert loads == [1]
    assert Move.objects.filter(game=game).count() == 2
    _assert_log_replays_to_the_snapshot(game)
