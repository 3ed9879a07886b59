"""Play by email under the faults a deployment meets: a slow or hung SMTP server, a refusing one, a broker down;
and mail that is never repeated nor stale. Real SMTP servers (aiosmtpd, or a socket that never answers), the real
worker on Redis, real PostgreSQL."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
from aiosmtpd.controller import Controller
from django.db import connection

import rules
from games import autoplay, notifications, services
from games.models import Game, Move, Notification
from tests.games.helpers import state_of
from tests.games.tasks.conftest import Inbox, async_game, free_port, wait_for


def play(game: Game, user) -> float:
    """One move by `user`; returns how long it took."""
    state = state_of(game)
    seat = game.seats.get(user=user).index
    started = time.monotonic()
    services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[0])
    return time.monotonic() - started


class SlowInbox(Inbox):
    """Answers DATA only after `delay` seconds, as a loaded mail server does."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        await asyncio.sleep(self.delay)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def slow_smtp(settings):
    inbox = SlowInbox(delay=5)
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", controller.port, False
    settings.SITE_URL = "http://testserver"
    yield inbox
    controller.stop()


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
    wait_for(lambda: len(slow_smtp.messages) == 3, timeout=30)  # Alice's turn, Bob's "started", Bob's turn
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
    broker = worker.conf.broker_url
    worker.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there: the broker is down
    worker._pool = worker.amqp._producer_pool = None
    try:
        assert play(game, alice) < 3.0
        assert play(game, alice) < 3.0
    finally:
        worker.conf.broker_url = broker
        worker._pool = worker.amqp._producer_pool = None
    assert Move.objects.filter(game=game).count() == 2
    row = Notification.objects.get(game=game, user=bob, kind="turn")
    assert row.sent_at is None  # the flusher sends it once the broker is back
