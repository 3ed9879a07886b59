"""Play by email: one email to exactly the right users, idempotent sends, a durable outbox, quiet hours,
digests, reminders, timeouts, vacations and standing orders."""

from __future__ import annotations

import re

import pytest
from django.test import Client

import rules
from games import services
from games.mail import notifications
from games.models import Game, Move, Notification, Seat
from tests.factories import UserFactory
from tests.games.private_services import forget_connections
from tests.games.tasks.conftest import async_game, wait_for

from ..helpers import state_of


def play(game, user, pick=0):
    state = state_of(game)
    seat = game.seats.get(user=user).index
    return services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[pick])


def body(message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode()
    raise AssertionError("no text part")


@pytest.mark.django_db(transaction=True)
def test_a_move_sends_exactly_one_email_to_exactly_the_next_player(smtp, worker, clock):
    game, (alice, bob) = async_game()
    # Alice is first: she is told it is her turn, Bob that the game started. Her settlement leaves her to move:
    # nobody new.
    wait_for(lambda: len(smtp.messages) == 2)
    assert len(smtp.to(alice.email)) == len(smtp.to(bob.email)) == 1
    play(game, alice)
    play(game, alice)  # her road: Bob must act now
    wait_for(lambda: len(smtp.messages) == 3)
    mails = smtp.to(bob.email)
    assert len(mails) == 2 and len(smtp.to(alice.email)) == 1
    message = mails[1]
    assert {p.get_content_type() for p in message.walk()} >= {"text/plain", "text/html", "image/png"}
    text = body(message)
    assert "Since your last turn" in text and "built a settlement" in text
    link = re.search(r"http://testserver(/play/\S+/)", text).group(1)
    client = Client()
    response = client.post(link)  # the page's button: opening the link logs no one in (test_login_link_click.py)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert client.get(f"/api/games/{game.pk}/").json()["your_seat"] == 1
    # The link stays good until it expires, whatever other log-ins happen (another device, another email), and a
    # player already logged in lands on the game.
    assert Client().post(link)["Location"] == f"/games/{game.pk}/"
    assert client.get(link)["Location"] == f"/games/{game.pk}/"
    # A password change ends it.
    bob.set_password("a brand new passphrase")
    bob.save()
    assert Client().get(link)["Location"].startswith("/accounts/login/")
    assert Notification.objects.filter(game=game, user=bob, kind="turn", sent_at__isnull=False).count() == 1


@pytest.mark.django_db(transaction=True)
def test_unsubscribe_asks_on_get_and_unsubscribes_on_a_one_click_post(smtp, worker, clock):
    game, (alice, bob) = async_game()
    wait_for(lambda: smtp.to(alice.email))
    message = smtp.to(alice.email)[0]
    link = re.search(r"http://testserver(/unsubscribe/\S+/)", body(message)).group(1)
    assert " ".join(message["List-Unsubscribe"].split()) == f"<http://testserver{link}>"  # a folded header
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    page = Client().get(link)  # a mail scanner following the link changes nothing
    assert page.status_code == 200 and b'method="post"' in page.content
    alice.refresh_from_db()
    assert alice.notify != "none"
    # The mail client's one-click POST (RFC 8058), with no cookie and no CSRF token.
    response = Client(enforce_csrf_checks=True).post(link, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.notify == "none"


@pytest.mark.django_db
def test_a_retried_send_does_not_resend(smtp, clock):
    game, (alice, bob) = async_game()
    pk = Notification.objects.get(game=game, user=alice).pk
    assert notifications.send(pk) == "sent"
    assert notifications.send(pk) == "already sent"
    from games.tasks import notification_send

    assert notification_send.apply(args=(pk,)).get() == "already sent"
    assert len(smtp.to(alice.email)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_made_while_the_broker_is_down_is_stored_and_mailed_once_when_it_returns(smtp, worker, clock):
    game, (alice, bob) = async_game()
    wait_for(lambda: smtp.to(alice.email))
    worker.private_redis.stop()  # the broker's redis-server, killed by its PID
    play(game, alice)
    play(game, alice)
    assert Move.objects.filter(game=game).count() == 2
    row = Notification.objects.get(game=game, user=bob, kind="turn")
    assert row.sent_at is None and len(smtp.to(bob.email)) == 1  # only "the game started"
    # The broker is back: the beat's flusher, run by the real worker, sends the outbox once.
    worker.private_redis.start()
    forget_connections(worker)
    from games.tasks import notifications_flush

    notifications_flush.delay()
    wait_for(lambda: len(smtp.to(bob.email)) == 2, timeout=60)  # the start, then his turn
    notifications_flush.delay()
    assert notifications.flush() == 0
    assert len(smtp.to(bob.email)) == 2  # once


@pytest.mark.django_db
def test_quiet_hours_delay_mail_and_the_digest_gathers_it(smtp, clock):
    import datetime as dt

    game, (alice, bob) = async_game()
    assert notifications.flush() == 2  # Alice's first turn, and Bob hears the game started
    bob.time_zone = "Europe/Paris"
    bob.quiet_start, bob.quiet_end = dt.time(22, 0), dt.time(7, 0)
    bob.save()
    clock.now = dt.datetime(2026, 11, 23, 22, 30, tzinfo=dt.UTC)  # 23:30 in Paris
    play(game, alice)
    play(game, alice)
    row = Notification.objects.get(game=game, user=bob, kind="turn")
    assert row.send_after == dt.datetime(2026, 11, 24, 6, 0, tzinfo=dt.UTC)  # 07:00 in Paris
    assert notifications.flush() == 0 and len(smtp.to(bob.email)) == 1  # only the start's
    clock.advance(hours=8)
    assert notifications.flush() == 1 and len(smtp.to(bob.email)) == 2
    # A digest user gets no single mail, then one digest for all waiting games.
    carol = UserFactory(email="carol@example.com", notify="digest")
    other, (dave,) = async_game(humans=1, bots=2)
    notifications.flush()
    Seat.objects.filter(game=other, user=dave).update(user=carol)
    state = state_of(other)
    notifications.create_for_move(other, state, other.seq + 100)
    assert notifications.flush() == 0
    # Her digest comes at the local hour she chose (Tokyo, 9 in the morning), whenever beat looks before.
    carol.time_zone, carol.digest_hour = "Asia/Tokyo", 9
    carol.save()
    clock.now = dt.datetime(2026, 11, 24, 23, 30, tzinfo=dt.UTC)  # 08:30 in Tokyo
    assert notifications.send_digests() == 0
    clock.advance(hours=1)  # 09:30 in Tokyo
    assert notifications.send_digests() == 1
    digest = smtp.to("carol@example.com")
    assert len(digest) == 1 and str(other) in body(digest[0])
    assert notifications.send_digests() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("policy", ["bot", "skip", "replace"])
def test_reminder_then_timeout_fire_once_with_the_policy(smtp, clock, policy):
    game, (alice, bob) = async_game(policy=policy)
    start = clock.now
    assert game.deadline == start + __import__("datetime").timedelta(hours=1)
    clock.advance(minutes=30)
    assert services.tick(game.pk) == "waiting"
    clock.advance(minutes=20)
    assert services.tick(game.pk) == "reminded"
    assert services.tick(game.pk) == "waiting"
    assert Notification.objects.filter(game=game, user=alice, kind="reminder").count() == 1
    clock.advance(minutes=11)
    assert services.tick(game.pk) == f"timeout:{policy}"
    game.refresh_from_db()
    move = Move.objects.get(game=game, seq=1)
    assert move.seat == 0 and move.events[0] == {"type": "timeout", "seat": 0, "policy": policy}
    assert Notification.objects.filter(game=game, user=alice, kind="timeout").count() == 1
    seat = game.seats.get(index=0)
    if policy == "replace":
        assert seat.user is None and seat.bot == "medium"
        assert move.events[1]["type"] == "seat_replaced"
    else:
        assert seat.user == alice
        # Her whole turn was played in one go (her set-up settlement and road): Bob must act, with a fresh
        # deadline of his own, and the timeout fired once.
        assert list(Move.objects.filter(game=game).values_list("seat", "cause")) == [(0, "timeout"), (0, "timeout")]
        assert rules.to_move(state_of(game)) == [1]
        assert game.deadline == clock.now + __import__("datetime").timedelta(hours=1)
        assert services.tick(game.pk) == "waiting"


@pytest.mark.django_db
def test_vacation_pauses_the_clock(clock):
    game, (alice, bob) = async_game()
    first_deadline = game.deadline
    services.vacation_start(game_id=game.pk, user=alice, days=2)
    game.refresh_from_db()
    assert game.deadline == first_deadline + __import__("datetime").timedelta(days=2)
    clock.advance(hours=2)
    assert services.tick(game.pk) == "vacation"
    assert not Move.objects.filter(game=game).exists()
    view = services_view(game, bob)
    assert view["seats"][0]["vacation_until"] is not None
    from infra.errors import GameError

    with pytest.raises(GameError) as caught:
        services.vacation_start(game_id=game.pk, user=alice, days=13)
    assert caught.value.code == "vacation_limit"


def services_view(game, user):
    from games import selectors

    return selectors.game_view(Game.objects.get(pk=game.pk), user)


@pytest.mark.django_db
def test_standing_orders_answer_discards_and_trades(clock):
    game, (alice, bob) = async_game()
    services.standing_orders_set(
        game_id=game.pk, user=bob, orders={"discard_priority": ["wool", "ore"], "auto_decline_trades": True}
    )
    # Skip set-up by bots' greed: play it out with the first legal actions.
    for _ in range(40):
        state = state_of(game)
        if state.phase not in ("setup_settlement", "setup_road"):
            break
        seat = rules.to_move(state)[0]
        user = alice if seat == 0 else bob
        if seat == 2:
            break
        services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[0])
    game.refresh_from_db()
    # Put the game in Alice's main phase with an offer pending, and Bob holding 9 cards for a 7.
    state = state_of(game)
    state.phase, state.current, state.dice = "main", 0, [3, 4]
    state.hands[0] = [0, 0, 2, 0, 0]
    state.hands[1] = [1, 1, 3, 2, 2]
    state.bank = [19 - sum(h[r] for h in state.hands) for r in range(5)]
    game.state = rules.dump(state)
    game.save()
    services.move_submit(
        game_id=game.pk, user=alice, action={"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}, "to": [1]}
    )
    moves = list(Move.objects.filter(game=game).order_by("-seq")[:2])
    assert moves[0].seat == 1 and moves[0].action == {"type": "reject_trade"}
    assert moves[0].events[0] == {"type": "standing_order", "seat": 1}
    services.move_submit(game_id=game.pk, user=alice, action={"type": "cancel_trade"})
    state = state_of(game)
    state.phase = "roll"
    state.stream = __import__("tests.rules.positions", fromlist=["x"]).stream_for_roll(7)
    game.state = rules.dump(state)
    game.save()
    services.move_submit(game_id=game.pk, user=alice, action={"type": "roll"})
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last.seat == 1 and last.action == {"type": "discard", "cards": {"wool": 3, "ore": 1}}
    assert sum(state_of(game).hands[1]) == 5


def _digest_game(creator, other):
    """A started game by email: `creator` (seat 0) moves first, then `other`, then a bot."""
    game = services.game_create(
        creator=creator, seat_count=3, bot_seats=[2], options={"seat_order": "fixed"}, clock="async",
        move_seconds=3600, timeout_policy="bot",
    )
    services.seat_join(game_id=game.pk, user=other)
    services.game_start(game_id=game.pk, user=creator)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_the_digest_lists_only_games_still_waiting_on_its_reader_and_carries_unsubscribe_headers(smtp, clock):
    carol = UserFactory(email="carol-digest@example.com", notify="digest")
    bob = UserFactory(email="bob-digest@example.com")
    decided, waiting = _digest_game(carol, bob), _digest_game(carol, bob)
    assert Notification.objects.filter(user=carol, digest=True, sent_at__isnull=True).count() == 2
    play(decided, carol)
    play(decided, carol)  # her settlement and road, from the page: that game now waits on Bob
    assert notifications.send_digests(every_hour=True) == 1
    digest = smtp.to(carol.email)
    assert len(digest) == 1
    text = body(digest[0])
    listed = [line.split(":")[0] for line in text.splitlines() if line.startswith("- ")]
    assert listed == [f"- {waiting}"]
    assert "List-Unsubscribe=One-Click" == digest[0]["List-Unsubscribe-Post"]
    assert " ".join(digest[0]["List-Unsubscribe"].split()).startswith("<http://testserver/unsubscribe/")
    stale = Notification.objects.get(game=decided, user=carol, seq=0)
    assert stale.sent_at is None and stale.dropped_at is not None
    # Nothing left to say: no empty digest.
    play(waiting, carol)
    play(waiting, carol)
    assert notifications.send_digests(every_hour=True) == 0


@pytest.mark.django_db
def test_a_log_in_link_opens_its_game_until_it_expires(smtp, clock, settings, monkeypatch):
    import time

    from django.core import signing

    from games.mail.links import login_url

    game, (alice, _bob) = async_game()
    settings.LOGIN_LINK_MAX_AGE = 14 * 86400
    real = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real() - 13 * 86400)
    fresh = login_url(alice, game.pk).removeprefix("http://testserver")
    monkeypatch.setattr(signing.time, "time", lambda: real() - 15 * 86400)
    old = login_url(alice, game.pk).removeprefix("http://testserver")
    monkeypatch.setattr(signing.time, "time", real)
    assert Client().post(fresh)["Location"] == f"/games/{game.pk}/"
    expired = Client().get(old)
    assert expired.status_code == 302 and expired["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_chat_is_mailed_only_to_those_who_asked_once_per_unread_batch(smtp, clock):
    game, (alice, bob) = async_game()
    notifications.flush()
    bob.notify_chat = True
    bob.save()
    before = len(smtp.messages)
    services.chat_post(game_id=game.pk, user=alice, text="Anyone for wool?")
    services.chat_post(game_id=game.pk, user=alice, text="I give ore.")
    services.chat_post(game_id=game.pk, user=bob, text="Not me.")  # Alice did not ask for chat mail
    assert notifications.flush() == 1
    chats = smtp.messages[before:]
    assert [m["To"] for m in chats] == [bob.email]
    text = body(chats[0])
    assert "Anyone for wool?" in text and "I give ore." in text and "Not me." not in text


@pytest.mark.django_db(transaction=True)
def test_no_task_result_is_stored(smtp, worker, clock):
    from django.conf import settings as site_settings

    from games.tasks import notifications_flush

    assert site_settings.CELERY_RESULT_BACKEND is None  # nothing reads a task's result
    game, (alice, _bob) = async_game()
    wait_for(lambda: smtp.to(alice.email))
    notifications_flush.delay()  # a task that returns a value, through the real worker
    broker = worker.private_redis.client()
    wait_for(lambda: broker.llen("celery") == 0 and not broker.hlen("unacked"))
    assert list(broker.scan_iter("celery-task-meta-*")) == []
