"""Web Push notices (issue 42) through the real transport: the real Celery worker sends each outbox row with the
site's own push code (pywebpush) over HTTP to a push service stand-in that speaks the protocol (tests/games/
push_service.py: it checks the VAPID JWT against the site's public key and decrypts with http_ece and the
subscription's keys, which only the test, playing the browser, holds)."""

from __future__ import annotations

import time
from urllib.parse import urlencode

import pytest
from rest_framework.test import APIClient

import rules
from games import services
from games.mail import notifications
from games.models import Game, Notification, PushSubscription
from rules.ai import move_for
from rules.ai.autoplay import bot_seed
from tests.factories import UserFactory
from tests.games.push_service import PushService, vapid_key_pair
from tests.games.tasks.conftest import wait_for


@pytest.fixture
def push_service(settings):
    private, public = vapid_key_pair()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = private, public
    settings.VAPID_SUBJECT = "mailto:admin@catan.example.com"
    service = PushService(public)
    service.start()
    yield service
    service.stop()


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _subscribed(service: PushService, user, name: str, notify_by: str = "push"):
    """The user's browser subscribes, as the page does, and they choose where notices go."""
    browser = service.browser(name)
    client = _api(user)
    assert client.get("/api/push/key/").json() == {"public_key": service.site_public_key, "enabled": True}
    response = client.post("/api/push/subscriptions/", browser.subscription(), format="json")
    assert response.status_code == 201, response.content
    assert client.put("/api/push/notify-by/", {"notify_by": notify_by}, format="json").json() == {
        "notify_by": notify_by
    }
    return browser


def _game(alice, bob, carol) -> Game:
    """A play-by-email game of three people, in this seat order."""
    game = services.game_create(
        creator=alice, seat_count=3, bot_seats=[], options={"seat_order": "fixed"}, clock="async", move_seconds=3600
    )
    services.seat_join(game_id=game.pk, user=bob)
    services.seat_join(game_id=game.pk, user=carol)
    services.game_start(game_id=game.pk, user=alice)
    game.refresh_from_db()
    return game


def _play(game: Game, users: list, moves: int, notified=None) -> None:
    """`moves` moves, each by its player; `notified` (a user) acts only once their notice went, as a person who
    plays when their phone says so."""
    for _ in range(moves):
        game.refresh_from_db()
        state = rules.load(game.state)
        seat = rules.to_move(state)[0]
        if users[seat] == notified:
            wait_for(lambda: _settled(game), timeout=30)
        action = move_for(state, seat, "medium", seed=bot_seed(game.bot_secret, game.seq, seat))
        services.move_submit(game_id=game.pk, user=users[seat], action=action, expected_seq=game.seq)


def _settled(game: Game) -> bool:
    return not Notification.objects.filter(game=game, sent_at__isnull=True, dropped_at__isnull=True).exists()


@pytest.mark.django_db(transaction=True)
def test_a_push_subscriber_receives_and_decrypts_one_notice_per_decision_and_no_mail(push_service, smtp, worker):
    alice, bob, carol = (UserFactory(email=f"{name}-push@example.com") for name in ("alice", "bob", "carol"))
    browser = _subscribed(push_service, bob, "bob")
    game = _game(alice, bob, carol)
    _play(game, [alice, bob, carol], 40, notified=bob)
    wait_for(lambda: _settled(game), timeout=60)
    assert push_service.rejected == []
    pushed = list(Notification.objects.filter(game=game, user=bob, sent_at__isnull=False).order_by("seq"))
    received = push_service.notices(browser)
    decisions = [n for n in pushed if n.kind in notifications.DECISION_KINDS]
    assert len(decisions) >= 3 and all(n.pushed_at is not None for n in pushed)
    assert len(received) == len(pushed)  # one notice per row: per decision asked, and the start
    assert not Notification.objects.filter(game=game, user=bob, dropped_at__isnull=False).exists()
    for notice, row in zip(received, pushed, strict=True):
        assert notice["tag"] == f"game-{game.pk}" and notice["url"].endswith(f"/games/{game.pk}/")
        if row.kind in notifications.DECISION_KINDS:
            assert notice["title"] == f"Your turn in {game}" and notice["body"]
    assert smtp.to(bob.email) == []  # push only
    assert smtp.to(alice.email)  # her mail goes as before


def _bob_to_roll(game: Game) -> bool:
    game.refresh_from_db()
    return {"type": "roll"} in rules.legal_actions(rules.load(game.state), 1)


@pytest.mark.django_db(transaction=True)
def test_a_roll_notice_carries_one_action_through_the_emails_one_use_page(push_service, smtp, worker):
    alice, bob, carol = (UserFactory(email=f"{name}-roll@example.com") for name in ("alice", "bob", "carol"))
    browser = _subscribed(push_service, bob, "bob-roll", notify_by="both")
    game = _game(alice, bob, carol)
    while not _bob_to_roll(game):
        _play(game, [alice, bob, carol], 1)
    wait_for(lambda: _settled(game) and push_service.notices(browser), timeout=60)
    row = Notification.objects.filter(game=game, user=bob, sent_at__isnull=False).latest("seq")
    notice = push_service.notices(browser)[-1]
    assert notice["action"]["verb"] == "roll" and notice["action"]["url"].endswith(f"/act/{row.action_code}/roll/")
    page = APIClient()
    page.force_login(bob)
    path = notice["action"]["url"].removeprefix("http://testserver")
    assert page.post(path).status_code in (200, 302)  # the one-click page's POST rolls
    assert Game.objects.get(pk=game.pk).seq == row.seq + 1
    page.post(path)  # used: the second changes nothing
    assert Game.objects.get(pk=game.pk).seq == row.seq + 1
    assert smtp.to(bob.email)  # "both": the mail went too


@pytest.mark.django_db(transaction=True)
def test_a_subscription_the_push_service_says_is_gone_is_removed(push_service, smtp, worker):
    alice, bob, carol = (UserFactory(email=f"{name}-gone@example.com") for name in ("alice", "bob", "carol"))
    browser = _subscribed(push_service, bob, "bob-gone")
    push_service.answer["/push/bob-gone"] = 410
    game = _game(alice, bob, carol)
    _play(game, [alice, bob, carol], 2)  # Alice's first set-up turn: Bob's
    wait_for(lambda: _settled(game), timeout=60)
    assert not PushSubscription.objects.filter(user=bob).exists()
    assert push_service.notices(browser) == []


@pytest.mark.django_db(transaction=True)
def test_a_failing_push_service_slows_no_move_and_the_notice_goes_once_when_it_is_back(push_service, smtp, worker):
    alice, bob, carol = (UserFactory(email=f"{name}-down@example.com") for name in ("alice", "bob", "carol"))
    browser = _subscribed(push_service, bob, "bob-down")
    push_service.answer["/push/bob-down"] = 500
    game = _game(alice, bob, carol)
    started = time.monotonic()
    _play(game, [alice, bob, carol], 2)  # Alice's first set-up turn: Bob's, pushed by the worker, refused
    assert time.monotonic() - started < 2.0
    row = Notification.objects.get(game=game, user=bob, kind="turn")
    wait_for(lambda: Notification.objects.filter(pk=row.pk, last_error__contains="500").exists(), timeout=30)
    row.refresh_from_db()
    assert row.sent_at is None and row.pushed_at is None and row.attempts >= 1
    del push_service.answer["/push/bob-down"]
    notifications.flush()  # beat's flusher (the task's own retry comes 30 s later)
    notifications.flush()
    row.refresh_from_db()
    assert row.sent_at is not None and row.pushed_at is not None
    assert [n["title"] for n in push_service.notices(browser)].count(f"Your turn in {game}") == 1


@pytest.mark.django_db
def test_bad_push_input_is_a_4xx_with_a_machine_code(settings, client):
    user = UserFactory()
    api = _api(user)
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    good = {"endpoint": "https://push.example.com/x", "keys": {"p256dh": "A" * 87, "auth": "B" * 22}}
    response = api.post("/api/push/subscriptions/", good, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "push_unavailable"
    response = api.post("/api/push/subscriptions/", {"endpoint": "nope", "keys": {}}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"]
    response = api.put("/api/push/notify-by/", {"notify_by": "pigeon"}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"]
    other = UserFactory()
    game = services.game_create(creator=other, seat_count=3, bot_seats=[1, 2], clock="async", move_seconds=3600)
    response = api.put(f"/api/games/{game.pk}/notify-by/", {"notify_by": "push"}, format="json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_seated"
    assert APIClient().post("/api/push/subscriptions/", good, format="json").status_code in (401, 403)
    response = api.delete("/api/push/subscriptions/")
    assert response.status_code == 400 and response.json()["error"]["code"]


@pytest.mark.django_db
def test_a_browser_unsubscribes_its_own_endpoint_only(push_service):
    alice, bob = UserFactory(), UserFactory()
    browser = _subscribed(push_service, alice, "alice-leaves")
    path = f"/api/push/subscriptions/?{urlencode({'endpoint': browser.endpoint})}"
    assert _api(bob).delete(path).json() == {"unsubscribed": False}
    assert PushSubscription.objects.filter(user=alice).exists()
    assert _api(alice).delete(path).json() == {"unsubscribed": True}
    assert not PushSubscription.objects.filter(user=alice).exists()


@pytest.mark.django_db(transaction=True)
def test_a_push_only_reader_who_wants_no_email_gets_the_single_notices_pushed_once_each(
    push_service, smtp, worker, clock
):
    """Issue 42: the notices that are not a move's (the start, chat, a timeout played) reached push only through
    the email preference: a reader with email notices "none" and push on got none of them."""
    alice, bob, carol = (UserFactory(email=f"{name}-single@example.com") for name in ("alice", "bob", "carol"))
    browser = _subscribed(push_service, bob, "bob-single")
    bob.notify, bob.notify_chat = bob.Notify.NONE, True
    bob.save(update_fields=["notify", "notify_chat"])
    game = _game(alice, bob, carol)  # Bob moves second: "the game has started"
    services.chat_post(game_id=game.pk, user=alice, text="good luck")
    _play(game, [alice, bob, carol], 2)  # Alice's first set-up turn: Bob's turn
    wait_for(lambda: _settled(game), timeout=60)
    clock.advance(minutes=61)
    assert services.tick(game.pk) == "timeout:bot"  # Bob's turn played for him
    wait_for(lambda: _settled(game), timeout=60)
    notifications.flush()
    assert push_service.rejected == []
    rows = Notification.objects.filter(game=game, user=bob)
    assert sorted(rows.values_list("kind", flat=True)) == ["chat", "started", "timeout", "turn"]
    assert all(row.sent_at is not None and row.pushed_at is not None and not row.digest for row in rows)
    titles = sorted(notice["title"] for notice in push_service.notices(browser))
    assert titles == sorted(
        [
            f"The game has started: {game}",
            f"New chat messages: {game}",
            f"Your time ran out: {game}",
            f"Your turn in {game}",
        ]
    )
    assert smtp.to(bob.email) == []
