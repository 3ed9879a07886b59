"""The backup of docs/OPERATIONS.md, restored in a test: pg_dump (the pgserver wheel's) while a live and an email
game are played, pg_restore into a fresh database, then a real server on the restored database takes each game's
next move at its stored seq; the finished game still verifies from its seed; ratings and the audit log are the
same rows."""

from __future__ import annotations

import json
import subprocess
import threading
import urllib.request

import psycopg
import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token

import rules
from devstack.embedded import PG_BIN
from games import services
from games.fairness import verify
from games.models import Game
from moderation.models import AuditEntry
from ratings.models import Rating, RatingChange
from tests.factories import UserFactory
from tests.games.helpers import started_game
from tests.games.servers import free_port, server_env, start_server, stop
from tests.games.test_integrity import finish_game


def _dsn(name: str) -> str:
    db = connection.settings_dict
    return f"postgresql://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def _play(games: list[tuple[Game, list]], stop_event: threading.Event, counted: list[int]) -> None:
    """First legal moves in both games until told to stop (or 200 moves); `counted` gets how many were stored."""
    played = 0
    try:
        while not stop_event.is_set() and played < 200:
            for game, users in games:
                game.refresh_from_db()
                state = rules.load(game.state)
                seat = rules.to_move(state)[0]
                action = rules.legal_actions(state, seat)[0]
                services.move_submit(game_id=game.pk, user=users[seat], action=action, expected_seq=game.seq)
                played += 1
    finally:
        counted.append(played)
        connections.close_all()


def _rows() -> dict[str, list]:
    return {
        "ratings": sorted(Rating.objects.values_list("pk", "user_id", "mu", "sigma")),
        "changes": sorted(RatingChange.objects.values_list("pk", "game_id", "mu_after")),
        "audit": sorted(AuditEntry.objects.values_list("pk", "action", "game_id", "reason")),
    }


@pytest.mark.django_db(transaction=True)
def test_a_dump_taken_during_play_restores_and_every_game_goes_on(postgres, redis_url, tmp_path):
    finished, _ = finish_game()
    assert finished.status == Game.Status.FINISHED and verify(finished)["ok"]
    moderator = UserFactory(is_staff=True)
    AuditEntry.objects.create(moderator=moderator, action="note", game=finished, reason="backup test")
    live = started_game(humans=3, bots=0)
    email = started_game(humans=3, bots=0, clock=Game.Clock.ASYNC, move_seconds=86400)
    tokens = {u.pk: Token.objects.create(user=u).key for _, users in (live, email) for u in users}

    stop_event = threading.Event()
    counted: list[int] = []
    player = threading.Thread(target=_play, args=([live, email], stop_event, counted))
    player.start()
    dump = tmp_path / "catan.dump"
    try:
        db = connection.settings_dict
        subprocess.run(
            [str(PG_BIN / "pg_dump"), "--format=custom", "--no-owner", f"--file={dump}", _dsn(db["NAME"])],
            check=True,
            timeout=120,
        )
    finally:
        stop_event.set()
        player.join(timeout=60)
    assert counted and counted[0] > 0, "no move was played while the dump ran"
    restored = f"{connection.settings_dict['NAME']}_restored"
    with psycopg.connect(_dsn("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{restored}"')
        admin.execute(f'CREATE DATABASE "{restored}"')
    subprocess.run(
        [str(PG_BIN / "pg_restore"), "--no-owner", f"--dbname={_dsn(restored)}", str(dump)], check=True, timeout=120
    )
    original_rows = _rows()

    # The restored database, read with psycopg (the test's own connection stays on the original).
    with psycopg.connect(_dsn(restored)) as db:
        back = dict(db.execute("SELECT id, seq FROM games_game").fetchall())
        assert set(back) >= {finished.pk, live[0].pk, email[0].pk}
        last = dict(db.execute("SELECT game_id, max(seq) FROM games_move GROUP BY game_id").fetchall())
        for pk, seq in back.items():
            assert last.get(pk, 0) == seq, pk  # the game row and its moves from the same snapshot
        states = {
            pk: rules.load(state)
            for pk, state in db.execute(
                "SELECT id, state FROM games_game WHERE id = ANY(%s)", [[live[0].pk, email[0].pk]]
            ).fetchall()
        }
        ratings = db.execute("SELECT id, user_id, mu, sigma FROM ratings_rating ORDER BY id").fetchall()
        changes = db.execute("SELECT id, game_id, mu_after FROM ratings_ratingchange ORDER BY id").fetchall()
        audit = db.execute("SELECT id, action, game_id, reason FROM moderation_auditentry ORDER BY id").fetchall()
    assert [tuple(r) for r in ratings] == [tuple(r) for r in original_rows["ratings"]]
    assert [tuple(r) for r in changes] == [tuple(r) for r in original_rows["changes"]]
    assert [tuple(r) for r in audit] == [tuple(r) for r in original_rows["audit"]]
    assert any(r[3] == "backup test" for r in audit)
    assert original_rows["changes"], "the finished game was rated"
    seqs = {pk: back[pk] for pk in (live[0].pk, email[0].pk)}

    # A real server on the restored database: each game goes on at its restored seq.
    env = server_env(redis_url)
    env["DATABASE_URL"] = _dsn(restored).replace("postgresql://", "postgres://")
    port = free_port()
    server = start_server(port, env)
    try:
        # The finished game still verifies from its seed, on the restored data.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{finished.pk}/verify/", timeout=10) as page:
            assert b"rolls verified" in page.read()
        for game, users in (live, email):
            state = states[game.pk]
            seat = rules.to_move(state)[0]
            action = rules.legal_actions(state, seat)[0]
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/games/{game.pk}/moves/",
                data=json.dumps({"action": action, "expected_seq": seqs[game.pk]}).encode(),
                method="POST",
                headers={"Authorization": f"Token {tokens[users[seat].pk]}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == 200
                assert json.loads(response.read())["seq"] == seqs[game.pk] + 1
    finally:
        stop(server)
