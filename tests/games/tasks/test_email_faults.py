"""Play by email under the faults a deployment meets: a slow or hung SMTP server, a refusing one, a broker down;
and mail that is never repeated nor stale. Real SMTP servers (aiosmtpd, or a socket that never answers), the real
worker on Redis, real PostgreSQL."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.db import connection

import rules
from games import services
from games.mail import notifications
from games.models import Game, Move, Notification
from games.tasks import notifications_flush
from rules.ai import autoplay
from tests.games.helpers import state_of
from tests.games.private_services import SmtpCatcher
from tests.games.tasks.conftest import async_game, free_port, wait_for


def play(game: Game, user) -> float:
    """One move by `user`; returns how long it took."""
    state = state_of(game)
    seat = game.seats.get(user=user).index
    started = time.monotonic()
    services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[0])
    return time.monotonic() - started


def _smtp_settings(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", port, False
    settings.SITE_URL = "http://testserver"


@pytest.fixture
def slow_smtp(settings):
    """The SMTP catcher in its own process, answering each message 5 seconds late, as a loaded mail server does."""
    catcher = SmtpCatcher(delay=5)
    catcher.start()
    _smtp_settings(settings, catcher.port)
    yield catcher
    catcher.stop()


@pytest.fixture
def catcher(settings):
    """The SMTP catcher in its own process, stopped and started again by the test."""
    catcher = SmtpCatcher()
    catcher.start()
    _smtp_settings(settings, catcher.port)
    settings.EMAIL_TIMEOUT = 3
    yield catcher
    catcher.stop()


@pytest.fixture
def hung_smtp(settings):
    """A server that accepts connections and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", listener.getsockname()[1], False
    settings.EMAIL_TIMEOUT = 2
    yield listener
    stop.set()
    thread.join()
    for peer in held:
        peer.close()
    listener.close()


@pytest.mark.django_db(transaction=True)
def test_a_slow_mail_server_never_slows_the_next_move(slow_smtp, worker, clock):
    game, (alice, bob) = async_game()
    wait_for(lambda: Notification.objects.filter(game=game, user=alice, claimed_until__isnull=False).exists())
    # The worker is in the middle of a 5-second SMTP conversation about Alice's turn: her moves go through.
    assert play(game, alice) < 1.0
    assert play(game, alice) < 1.0
    wait_for(lambda: len(slow_smtp.messages) == 3, timeout=45)  # Alice's turn, Bob's "started", Bob's turn
    assert sorted(m["To"] for m in slow_smtp.messages) == sorted([alice.email, bob.email, bob.email])


@pytest.mark.django_db(transaction=True)
def test_a_hung_mail_server_times_out_holds_no_game_lock_and_the_failure_is_recorded(hung_smtp, clock):
    game, (alice, bob) = async_game()  # the start's own attempt, in-process, already timed out once
    row = Notification.objects.get(game=game, user=alice)
    assert row.attempts == 1 and "timed out" in row.last_error.lower()
    outcome: list = []
    sender = threading.Thread(target=lambda: outcome.append(_try_send(row.pk)))
    sender.start()
    time.sleep(0.5)  # the sender is waiting on the silent server
    assert play(game, alice) < 1.0  # no lock on the game (nor on Alice) is held across the SMTP conversation
    sender.join(timeout=20)
    assert outcome and outcome[0] == "failed"
    row.refresh_from_db()
    assert row.attempts == 2 and row.sent_at is None and "timed out" in row.last_error.lower()


def _try_send(pk: int) -> str:
    try:
        notifications.send(pk)
    except OSError:
        return "failed"
    finally:
        connection.close()  # this thread's own, so that the test database can be dropped
    return "sent"


@pytest.mark.django_db
def test_every_refused_attempt_is_counted_and_its_error_kept(settings, clock):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nothing listens: connection refused
    game, (alice, _bob) = async_game()
    row = Notification.objects.get(game=game, user=alice)
    for _ in range(3):
        with pytest.raises(OSError):
            notifications.send(row.pk)
    row.refresh_from_db()
    assert row.attempts == 3 and "refused" in row.last_error.lower() and row.sent_at is None


@pytest.mark.django_db
def test_rows_that_keep_failing_do_not_starve_the_others(smtp, clock):
    game, (alice, bob) = async_game()
    broken = Notification.objects.get(game=game, user=alice)
    Notification.objects.filter(pk=broken.pk).update(attempts=notifications.MAX_ATTEMPTS)
    play(game, alice)
    play(game, alice)  # Bob's turn: his row is due
    assert notifications.flush(limit=1) == 1
    assert smtp.to(bob.email) and not smtp.to(alice.email)


@pytest.mark.django_db
def test_the_replace_timeout_email_is_sent_to_the_player_who_lost_the_seat(smtp, clock):
    game, (alice, bob) = async_game(policy="replace")
    notifications.flush()
    clock.advance(hours=2)
    assert services.tick(game.pk) == "timeout:replace"
    timeout = Notification.objects.get(game=game, user=alice, kind="timeout")
    assert notifications.send(timeout.pk) == "sent"
    assert len(smtp.to(alice.email)) == 2  # her turn, then the timeout


@pytest.mark.django_db
def test_a_player_owing_a_trade_reply_is_not_mailed_again_when_others_answer(smtp, clock):
    game, (alice, bob, carol) = async_game(humans=3, bots=0)
    for _ in range(12):  # the set-up, played through
        state = state_of(game)
        seat = rules.to_move(state)[0]
        services.move_submit(
            game_id=game.pk, user=[alice, bob, carol][seat], action=rules.legal_actions(state, seat)[0]
        )
    state = state_of(game)
    current = [alice, bob, carol][state.current]
    services.move_submit(game_id=game.pk, user=current, action={"type": "roll"})
    state = state_of(game)
    while state.phase != "main":  # a 7: discards and the robber, by whoever owes them
        seat = rules.to_move(state)[0]
        action = autoplay.timeout_action(state, seat, "bot", seed=state.version)
        services.move_submit(game_id=game.pk, user=[alice, bob, carol][seat], action=action)
        state = state_of(game)
    hand = state.hands[state.current]
    give = next(r for r in range(5) if hand[r])
    names = ("lumber", "brick", "wool", "grain", "ore")
    offer = {"type": "offer_trade", "give": {names[give]: 1}, "get": {names[(give + 1) % 5]: 1}}
    services.move_submit(game_id=game.pk, user=current, action=offer)
    others = [u for u in (alice, bob, carol) if u != current]
    Notification.objects.all().update(sent_at=clock.now)
    services.move_submit(game_id=game.pk, user=others[0], action={"type": "reject_trade"})
    assert not Notification.objects.filter(sent_at__isnull=True, user=others[1]).exists()  # not mailed again
    services.move_submit(game_id=game.pk, user=others[1], action={"type": "reject_trade"})
    assert not Notification.objects.filter(sent_at__isnull=True, user=current).exists()  # still their turn


@pytest.mark.django_db
def test_mail_whose_decision_was_made_meanwhile_is_dropped_not_sent(smtp, clock):
    game, (alice, bob) = async_game()
    row = Notification.objects.get(game=game, user=alice)
    play(game, alice)  # she moved from the page before the mail went (quiet hours, an outage)
    play(game, alice)
    assert notifications.send(row.pk) == "dropped"
    assert not smtp.to(alice.email)
    row.refresh_from_db()
    assert row.dropped_at is not None and row.sent_at is None


@pytest.mark.django_db
def test_each_notification_has_one_stable_message_id(smtp, clock):
    game, (alice, _bob) = async_game()
    row = Notification.objects.get(game=game, user=alice)
    assert notifications.send(row.pk) == "sent"
    assert smtp.to(alice.email)[0]["Message-ID"] == notifications.message_id(row)


@pytest.mark.django_db(transaction=True)
def test_a_move_made_with_the_broker_down_answers_at_once(smtp, worker, clock):
    game, (alice, bob) = async_game()
    wait_for(lambda: smtp.to(alice.email))
    worker.private_redis.stop()  # the broker's redis-server, killed by its PID
    assert play(game, alice) < 1.0
    assert play(game, alice) < 1.0
    assert Move.objects.filter(game=game).count() == 2
    row = Notification.objects.get(game=game, user=bob, kind="turn")
    assert row.sent_at is None  # the flusher sends it once the broker is back


def _unsettled(game: Game):
    return Notification.objects.filter(game=game, sent_at__isnull=True, dropped_at__isnull=True)


@pytest.mark.django_db(transaction=True)
def test_a_mail_server_stopped_mid_game_slows_no_move_and_every_pending_mail_goes_once_when_it_returns(
    catcher, worker, clock
):
    game, users = async_game(humans=3, bots=0)
    wait_for(lambda: len(catcher.messages) == 3, timeout=30)  # Alice's turn; Bob and Carol: the game started
    before = {m["Message-ID"] for m in catcher.messages}
    catcher.stop()  # the SMTP server's process, killed by its PID
    latencies = []
    for _ in range(8):  # Alice's, Bob's and Carol's first set-up turns, and Carol's second
        state = state_of(game)
        seat = rules.to_move(state)[0]
        started = time.monotonic()
        services.move_submit(game_id=game.pk, user=users[seat], action=rules.legal_actions(state, seat)[0])
        latencies.append(time.monotonic() - started)
    assert max(latencies) < 1.0, latencies
    # The worker tried each mail due while the server was down: each failure is recorded, none was delivered.
    wait_for(lambda: not _unsettled(game).filter(last_error="").exists(), timeout=30)
    failed = list(_unsettled(game))
    assert failed and all(n.last_error for n in failed)
    bob = users[1]
    assert rules.to_move(state_of(game)) == [1]  # his second set-up turn
    assert not any(m["Message-ID"] not in before for m in catcher.messages)
    catcher.start()  # back, on the same port
    notifications_flush.delay()  # beat's flusher, run by the real worker
    wait_for(lambda: not _unsettled(game).exists(), timeout=60)
    notifications_flush.delay()
    assert notifications.flush() == 0
    wait_for(lambda: not worker.private_redis.client().llen("celery"), timeout=30)
    delivered = [m for m in catcher.messages if m["Message-ID"] not in before]
    assert [m["To"] for m in delivered] == [bob.email]  # once, and only what is still to decide
    current = Notification.objects.filter(game=game, user=bob, kind="turn").latest("seq")
    assert current in failed and delivered[0]["Message-ID"] == notifications.message_id(current)
    # The mail announcing decisions made meanwhile (Bob's first set-up turn, Carol's) was dropped, never sent.
    stale = Notification.objects.filter(game=game, seq__gt=0, dropped_at__isnull=False)
    assert {n.user for n in stale} == {bob, users[2]} and not stale.filter(sent_at__isnull=False).exists()
