"""The move service: locking, sequence numbers, idempotency, errors that change nothing, bots after humans."""

import pytest
from django.db import connection

import rules
from games import services
from games.models import Game, Move
from infra.errors import GameError
from tests.factories import UserFactory
from tests.games.helpers import first_legal, started_game, state_of

pytestmark = pytest.mark.django_db


def test_start_creates_the_engine_state_and_publishes_the_seed_hash():
    game, _ = started_game()
    assert game.status == Game.Status.ACTIVE
    assert game.state["schema"] == rules.SCHEMA_VERSION
    assert game.seed_commitment == rules.chance.seed_commitment(game.seed, game.seed_salt)
    assert game.seq == 0


def test_a_legal_move_is_stored_with_its_sequence_number():
    game, users = started_game()
    action = first_legal(game, 0)
    result = services.move_submit(game_id=game.pk, user=users[0], action=action, expected_seq=0)
    assert result.seq == 1
    move = Move.objects.get(game=game, seq=1)
    assert move.action == action and move.seat == 0
    assert state_of(game).vertex_owner[action["vertex"]] == 0


def test_an_illegal_move_is_refused_and_changes_nothing():
    game, users = started_game()
    before = dict(Game.objects.filter(pk=game.pk).values("state", "seq").get())
    for bad in ({"type": "roll"}, {"type": "build_settlement", "vertex": 10_000}, "nonsense", {"no": "type"}):
        with pytest.raises(GameError) as caught:
            services.move_submit(game_id=game.pk, user=users[0], action=bad)
        assert caught.value.status == 400
    assert dict(Game.objects.filter(pk=game.pk).values("state", "seq").get()) == before
    assert not Move.objects.filter(game=game).exists()


def test_moving_out_of_turn_is_refused():
    game, users = started_game()
    action = first_legal(game, 0)
    with pytest.raises(GameError) as caught:
        services.move_submit(game_id=game.pk, user=users[1], action=action)
    assert caught.value.code in ("not_your_turn", "illegal_action")


def test_a_stale_sequence_number_is_refused_with_the_current_one():
    game, users = started_game()
    services.move_submit(game_id=game.pk, user=users[0], action=first_legal(game, 0), expected_seq=0)
    with pytest.raises(GameError) as caught:
        services.move_submit(game_id=game.pk, user=users[0], action=first_legal(game, 0), expected_seq=0)
    assert caught.value.code == "stale" and caught.value.status == 409
    assert caught.value.extra["seq"] == 1


def test_a_retried_move_with_the_same_idempotency_key_is_applied_once():
    game, users = started_game()
    action = first_legal(game, 0)
    first = services.move_submit(game_id=game.pk, user=users[0], action=action, idempotency_key="k-1")
    again = services.move_submit(game_id=game.pk, user=users[0], action=action, idempotency_key="k-1")
    assert again.duplicate and again.seq == first.seq
    assert Move.objects.filter(game=game).count() == 1


def test_a_stranger_cannot_move():
    game, _ = started_game()
    with pytest.raises(GameError) as caught:
        services.move_submit(game_id=game.pk, user=UserFactory(), action=first_legal(game, 0))
    assert caught.value.status == 403


@pytest.mark.django_db(transaction=True)
def test_bots_play_after_the_humans_until_a_human_must_act():
    game, users = started_game(humans=1, bots=3)
    state = state_of(game)
    # Seat 0 places its first settlement and road; the three bots then place theirs (and the snake comes back).
    services.move_submit(game_id=game.pk, user=users[0], action=rules.legal_actions(state, 0)[0])
    services.move_submit(game_id=game.pk, user=users[0], action=first_legal(game, 0))
    state = state_of(game)
    assert rules.to_move(state) == [0]
    assert state.setup_index == 7  # seats 1, 2, 3 twice, then seat 0 again
    assert Move.objects.filter(game=game).exclude(seat=0).count() == 12


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_against_bots_finishes():
    game, users = started_game(humans=1, bots=2, bot_level="medium")
    from tests.greedy import GreedyBot

    me = GreedyBot(1)
    for _ in range(3000):
        state = state_of(game)
        if game.status != Game.Status.ACTIVE:
            break
        if 0 in rules.to_move(state):
            action = me.choose(state, 0, rules.legal_actions(state, 0))
            services.move_submit(game_id=game.pk, user=users[0], action=action, expected_seq=game.seq)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner_seat is not None
    assert list(Move.objects.filter(game=game).values_list("seq", flat=True)) == list(range(1, game.seq + 1))
    # The stored log replays to the stored state from the seed.
    replay = rules.new_game(scenario=game.scenario, players=game.seat_count, seed=game.seed, options=game.options)
    for move in Move.objects.filter(game=game).order_by("seq"):
        rules.apply(replay, move.seat, move.action)
    assert rules.dump(replay) == game.state


def test_create_validates_scenario_players_and_options():
    user = UserFactory()
    for kwargs, code in (
        ({"scenario": "atlantis"}, "unknown_scenario"),
        ({"seat_count": 7}, "bad_player_count"),
        ({"options": {"cheat": True}}, "unknown_option"),
        ({"bot_seats": [0]}, "bad_bot_seats"),
        ({"clock": "async", "move_seconds": 60}, "bad_move_time"),
    ):
        with pytest.raises(GameError) as caught:
            services.game_create(creator=user, **kwargs)
        assert caught.value.code == code
    assert not Game.objects.exists()


def test_join_leave_and_start_rules():
    creator, other, third = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=creator, seat_count=3, bot_seats=[2])
    with pytest.raises(GameError) as caught:
        services.game_start(game_id=game.pk, user=creator)
    assert caught.value.code == "seats_open"
    services.seat_join(game_id=game.pk, user=other)
    with pytest.raises(GameError) as caught:
        services.seat_join(game_id=game.pk, user=other)
    assert caught.value.code == "already_seated"
    with pytest.raises(GameError) as caught:
        services.seat_join(game_id=game.pk, user=third)
    assert caught.value.code == "no_free_seat"
    with pytest.raises(GameError) as caught:
        services.game_start(game_id=game.pk, user=other)
    assert caught.value.code == "not_creator"
    services.seat_leave(game_id=game.pk, user=other)
    services.seat_join(game_id=game.pk, user=third)
    services.game_start(game_id=game.pk, user=creator)
    with pytest.raises(GameError) as caught:
        services.seat_leave(game_id=game.pk, user=third)
    assert caught.value.code == "already_started"


def test_a_player_may_sit_in_many_games_up_to_the_cap(settings):
    settings.MAX_GAMES_PER_USER = 2
    user, other = UserFactory(), UserFactory()
    services.game_create(creator=user)
    services.game_create(creator=user)
    with pytest.raises(GameError) as caught:
        services.game_create(creator=user)
    assert caught.value.code == "too_many_games" and caught.value.status == 409
    third = services.game_create(creator=other)
    with pytest.raises(GameError):
        services.seat_join(game_id=third.pk, user=user)


@pytest.mark.django_db(transaction=True)
def test_a_live_move_costs_a_handful_of_statements(django_assert_max_num_queries):
    """The load target is at most 10 queries per move: on PostgreSQL a move is BEGIN, the locked game with its
    seats, the move and the game's update in one statement, and COMMIT (six elsewhere, with two more)."""
    game, users = started_game(humans=2, bots=2)
    action = first_legal(game, 0)
    with django_assert_max_num_queries(4 if connection.vendor == "postgresql" else 6) as captured:
        services.move_submit(game_id=game.pk, user=users[0], action=action, expected_seq=game.seq)
    assert Move.objects.filter(game=game, seq=1).exists()
    assert len(captured.captured_queries) >= 3


def _traced_move(tmp_path, game, users, seq: int) -> list[str]:
    """libpq's trace of the connection's messages while the human seat to move makes its first legal move at
    `seq`."""
    from psycopg import pq

    seat = rules.to_move(state_of(game))[0]
    user = users[seat]
    action = first_legal(game, seat)
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    trace = tmp_path / f"trace-{seq}.txt"
    with trace.open("w") as out:
        pgconn.trace(out.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            services.move_submit(game_id=game.pk, user=user, action=action, expected_seq=seq)
        finally:
            pgconn.untrace()
    assert Move.objects.filter(game=game, seq=seq + 1).exists()
    return trace.read_text().splitlines()


def _round_trips(messages: list[str]) -> int:
    return sum("ReadyForQuery" in line for line in messages)


def _prepared_on_connection() -> int:
    """How many of the move path's statements are prepared by name on this test's connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'catan%%'")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_live_move_is_three_round_trips_to_postgresql_and_its_statements_are_prepared(tmp_path, postgres):
    """Issue "Live play": psycopg sent the transaction's BEGIN on its own and waited for it, a fourth round trip of
    the move's thread; and the statement asked to be prepared was not (Django turns psycopg's preparing off), so
    PostgreSQL parsed and planned the move's write, with its whole snapshot, each time. BEGIN now goes with the
    game's lock, and the write is prepared once per connection. Then the lock, planned on every move (a fifth of
    PostgreSQL's CPU for the lock and the commit), is prepared too, by SQL's PREPARE, and run by EXECUTE. Read from
    libpq's trace of the connection's messages: each round trip ends with PostgreSQL's ReadyForQuery."""
    game, users = started_game(humans=2, bots=2)
    first = _traced_move(tmp_path, game, users, 0)  # prepares both
    assert any('Query\t "BEGIN; PREPARE catan_' in line and "FOR UPDATE; EXECUTE catan_" in line for line in first)
    messages = _traced_move(tmp_path, game, users, 1)
    log = "\n".join(line[:200] for line in messages)
    assert _round_trips(messages) == 3, log
    assert any('Query\t "BEGIN; EXECUTE catan_' in line for line in messages), log
    queries = [line for line in messages if "\tQuery\t" in line]
    assert not any("PREPARE" in line or "SELECT" in line for line in queries), log  # the lock: prepared
    assert not any("Parse" in line for line in messages), log  # the write is not parsed again: prepared


@pytest.mark.django_db(transaction=True)
def test_the_lock_is_prepared_again_once_a_rollback_dropped_it(tmp_path, postgres):
    """psycopg answers a rollback with DEALLOCATE ALL when it holds prepared statements (the write), which drops
    the lock's too: a refused move rolls back. The next move's EXECUTE then fails, its empty transaction is rolled
    back, and the lock is prepared again in the same move, which is stored once; the move after is three round
    trips again."""
    game, users = started_game(humans=2, bots=2)
    _traced_move(tmp_path, game, users, 0)
    with pytest.raises(GameError):
        services.move_submit(game_id=game.pk, user=users[0], action={"type": "no_such_action"}, expected_seq=1)
    assert _prepared_on_connection() == 0  # dropped by the rollback's DEALLOCATE ALL
    again = _traced_move(tmp_path, game, users, 1)
    log = "\n".join(line[:200] for line in again)
    assert any("ERROR" in line and "26000" in line for line in again), log  # the EXECUTE found no statement
    assert any('Query\t "BEGIN; PREPARE catan_' in line for line in again), log
    assert Move.objects.filter(game=game).count() == 2 and Game.objects.get(pk=game.pk).seq == 2
    after = _traced_move(tmp_path, game, users, 2)
    assert _round_trips(after) == 3 and any('"BEGIN; EXECUTE catan_' in line for line in after)


@pytest.mark.django_db(transaction=True)
def test_a_lock_that_fails_after_its_prepare_leaves_the_connection_usable(tmp_path, postgres):
    """A PREPARE is not undone when the rest of its query fails: here the first move on a new connection waits for
    the game's row past its lock timeout. It is refused; the next moves on the same connection run the prepared
    lock (preparing it again would fail with "already exists", and every move on that connection with it)."""
    import psycopg
    from django.db import OperationalError

    game, users = started_game(humans=2, bots=2)
    connection.close()  # a new connection: nothing prepared on it
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '200ms'")
    other = psycopg.connect(**connection.get_connection_params())  # the test database, in a session of its own
    try:
        other.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [game.pk])  # holds the row
        with pytest.raises(OperationalError):
            services.move_submit(game_id=game.pk, user=users[0], action=first_legal(game, 0), expected_seq=0)
    finally:
        other.rollback()
        other.close()
    assert _prepared_on_connection() == 1  # the failed query's PREPARE stayed
    first = _traced_move(tmp_path, game, users, 0)
    assert any('Query\t "BEGIN; EXECUTE catan_' in line for line in first)
    assert _round_trips(_traced_move(tmp_path, game, users, 1)) == 3
    assert Move.objects.filter(game=game).count() == 2


@pytest.mark.django_db(transaction=True)
def test_with_prepared_statements_off_the_lock_is_sent_whole(tmp_path, postgres, settings):
    """Behind a pooler that cannot keep prepared statements (DB_PREPARED_STATEMENTS off), no PREPARE is sent: the
    lock goes as its own text with BEGIN, as before."""
    settings.DB_PREPARED_STATEMENTS = False
    game, users = started_game(humans=2, bots=2)
    _traced_move(tmp_path, game, users, 0)
    messages = _traced_move(tmp_path, game, users, 1)
    assert any('Query\t "BEGIN; SELECT' in line for line in messages)
    assert not any("PREPARE" in line or "EXECUTE" in line for line in messages)


def test_the_locked_game_is_the_row_the_orm_reads(postgres):
    """`move_sql.lock_game` builds the game without `Model.__init__`: the same field values as the ORM's instance, the
    move path's unread fields deferred (read on access), and an instance Django saves as an existing row."""
    from django.db import transaction
    from django.db.models.signals import post_init

    from games.store import move_sql

    game, _ = started_game(humans=2, bots=1)
    orm = Game.objects.get(pk=game.pk)
    with transaction.atomic():
        locked = move_sql.lock_game(game.pk)
    assert type(locked) is Game and not locked._state.adding and locked._state.db == "default"
    assert locked.get_deferred_fields() == move_sql._NOT_FOR_MOVES
    for field in Game._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(orm, field.attname), field.name  # deferred ones: a query
    locked.name = "Renamed"
    locked.save(update_fields=["name"])
    assert Game.objects.get(pk=game.pk).name == "Renamed"

    seen = []
    post_init.connect(lambda instance, **kwargs: seen.append(instance), sender=Game, weak=False, dispatch_uid="t")
    try:
        with transaction.atomic():
            again = move_sql.lock_game(game.pk)
    finally:
        post_init.disconnect(sender=Game, dispatch_uid="t")
    assert seen == [again]  # with an init receiver, Django's own `from_db`


@pytest.mark.filterwarnings("ignore:DateTimeField .* received a naive datetime:RuntimeWarning")
def test_the_move_rows_are_prepared_as_django_prepares_them(postgres):
    """`move_sql._preparer` passes a value of the field's own type (an int, text, an aware datetime) as it is on
    PostgreSQL, and hands anything else to Django's `get_db_prep_save`: both give what Django's would, for every
    column a move writes."""
    import datetime as dt
    from decimal import Decimal

    from django.core.exceptions import ValidationError
    from psycopg.types.json import Json, Jsonb

    from games.store import move_sql

    aware = dt.datetime(2026, 11, 28, 12, 30, tzinfo=dt.UTC)
    samples = [None, 3, True, Decimal("4"), "5", "text", "", aware, dt.datetime(2026, 11, 28, 12, 30)]
    names = (*move_sql.MOVE_FIELDS, "seq", "deadline", "bot_turn_since", "status", "winner_seat", "finished_at")
    for model, fields in ((Move, move_sql.MOVE_FIELDS), (Game, names[len(move_sql.MOVE_FIELDS) :])):
        prepared, _, preps = move_sql._writer(model, tuple(fields), "postgresql")
        for field, prep in zip(prepared, preps, strict=True):
            for value in samples:
                try:
                    expected = move_sql._prep(field, value)
                except (TypeError, ValueError, ValidationError) as error:
                    with pytest.raises(type(error)):
                        prep(value)
                    continue
                got = prep(value)
                if isinstance(expected, Json | Jsonb):
                    assert type(got) is type(expected) and got.obj == expected.obj, (field.name, value)
                else:
                    assert got == expected and type(got) is type(expected), (field.name, value, got, expected)
