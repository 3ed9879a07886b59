"""Emails say what to decide: the offer of a trade, how many cards to discard, what a timeout played, the
deadline in the reader's time zone, the board as a picture every client shows, and a subject on one line."""

from __future__ import annotations

import pytest

import rules
from games import services
from games.mail import notifications
from games.models import Game, Notification
from rules.ai.autoplay import timeout_action
from tests.games.helpers import state_of
from tests.games.tasks.conftest import HOUR
from tests.games.tasks.conftest import async_game as email_game
from tests.games.tasks.test_play_by_email import body


def _mail_for(smtp, notification: Notification):
    assert notifications.send(notification.pk) == "sent"
    return smtp.to(notification.user.email)[-1]


def _play_setup(game: Game, users: list) -> None:
    while state_of(game).phase.startswith("setup"):
        state = state_of(game)
        seat = rules.to_move(state)[0]
        services.move_submit(game_id=game.pk, user=users[seat], action=rules.legal_actions(state, seat)[0])


@pytest.mark.django_db
def test_a_trade_email_states_the_offer(smtp, clock):
    game, users = email_game(humans=3, bots=0)
    _play_setup(game, users)
    state = state_of(game)
    current = users[state.current]
    services.move_submit(game_id=game.pk, user=current, action={"type": "roll"})
    while state_of(game).phase != "main":  # a 7: the discards and the robber first
        state = state_of(game)
        seat = rules.to_move(state)[0]
        action = timeout_action(state, seat, "bot", seed=1)
        services.move_submit(game_id=game.pk, user=users[seat], action=action)
    game_state = rules.load(Game.objects.get(pk=game.pk).state)
    game_state.hands[game_state.current] = [2, 2, 2, 2, 2]  # a hand to offer from, whatever the roll
    Game.objects.filter(pk=game.pk).update(state=rules.dump(game_state))
    offer = {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 2}}
    services.move_submit(game_id=game.pk, user=current, action=offer)
    other = next(u for u in users if u != current)
    row = Notification.objects.filter(game=game, user=other, kind="trade").latest("seq")
    text = body(_mail_for(smtp, row))
    assert f"{current.label} offers 1 wool for your 2 ore" in text


@pytest.mark.django_db
def test_a_discard_email_says_how_many_cards(smtp, clock):
    game, users = email_game(humans=2, bots=1)
    state = rules.load(Game.objects.get(pk=game.pk).state)
    state.phase, state.discards_owed = "discard", [0, 4, 0]
    state.hands[1] = [2, 2, 2, 2, 1]
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state))
    row = Notification.objects.create(
        game=game, seq=game.seq, user=users[1], kind="discard", created_at=clock.now, send_after=clock.now
    )
    text = body(_mail_for(smtp, row))
    assert "discard 4 of your 9 cards" in text


@pytest.mark.django_db
def test_the_deadline_is_in_the_reader_s_time_zone_and_the_subject_on_one_line(smtp, clock):
    game, (alice, _bob) = email_game()
    alice.time_zone = "Asia/Tokyo"
    alice.save()
    message = _mail_for(smtp, Notification.objects.get(game=game, user=alice))
    text = body(message)
    assert "(Asia/Tokyo)" in text and "10 p.m." in text  # 13:00 UTC (noon and an hour to play) in Tokyo
    assert "\n" not in message["Subject"] and "Place your settlement and its road." in text
    assert any(part.get_content_type() == "image/png" for part in message.walk())


@pytest.mark.django_db
def test_the_timeout_email_says_what_was_played(smtp, clock):
    game, (alice, _bob) = email_game(policy="bot")
    notifications.flush()
    clock.advance(hours=2)
    assert services.tick(game.pk) == "timeout:bot"
    text = body(_mail_for(smtp, Notification.objects.get(game=game, user=alice, kind="timeout")))
    assert "this was played for you" in text and "built a settlement" in text and "built a road" in text


@pytest.mark.django_db(transaction=True)
def test_players_invite_by_username_or_email_and_the_others_hear_that_the_game_started(smtp, clock):
    from django.test import Client

    from tests.factories import UserFactory

    alice, bob = UserFactory(), UserFactory(email="bob-invited@example.com")
    game = services.game_create(creator=alice, seat_count=3, bot_seats=[2], visibility="private", clock="async",
                                move_seconds=HOUR, options={"seat_order": "fixed"})  # alice, seat 0, starts
    client = Client()
    client.force_login(alice)
    assert client.post(f"/games/{game.pk}/invite/", {"to": bob.username}).status_code == 302
    assert client.post(f"/games/{game.pk}/invite/", {"to": "friend@example.org"}).status_code == 302
    assert client.post(f"/games/{game.pk}/invite/", {"to": "nobody-at-all"}).status_code == 302  # an error shown
    invited = smtp.to(bob.email)[0]
    assert f"?invite={game.invite_token}" in body(invited) and alice.label in invited["Subject"]
    assert smtp.to("friend@example.org")
    assert len(smtp.messages) == 2
    services.seat_join(game_id=game.pk, user=bob, invite=game.invite_token)
    services.game_start(game_id=game.pk, user=alice)
    # Alice moves first (she gets "Your turn"); Bob hears the game started.
    assert Notification.objects.filter(game=game, user=bob, kind="started").exists()
    assert not Notification.objects.filter(game=game, user=alice, kind="started").exists()


@pytest.mark.django_db
def test_reminders_and_timeouts_reach_digest_readers_at_once(smtp, clock):
    game, (alice, _bob) = email_game()
    alice.notify = "digest"
    alice.save()
    clock.advance(minutes=50)
    assert services.tick(game.pk) == "reminded"
    assert not Notification.objects.get(game=game, user=alice, kind="reminder").digest
    clock.advance(minutes=20)
    assert services.tick(game.pk) == "timeout:bot"
    assert not Notification.objects.get(game=game, user=alice, kind="timeout").digest


@pytest.mark.django_db
def test_reminders_and_timeout_notices_are_not_held_by_quiet_hours(smtp, clock):
    """Quiet hours hold ordinary mail, but a reminder held until they end would come after the deadline."""
    import datetime as dt

    game, (alice, _bob) = email_game()
    notifications.flush()
    alice.quiet_start, alice.quiet_end = dt.time(12, 30), dt.time(23, 0)  # UTC, as her time zone
    alice.save()
    clock.advance(minutes=50)  # 12:50, inside her quiet hours; her deadline is 13:00
    assert services.tick(game.pk) == "reminded"
    reminder = Notification.objects.get(game=game, user=alice, kind="reminder")
    assert reminder.send_after <= clock.now
    assert notifications.flush() == 1 and "Reminder" in smtp.to(alice.email)[-1]["Subject"]
    clock.advance(minutes=11)
    assert services.tick(game.pk) == "timeout:bot"
    timeout = Notification.objects.get(game=game, user=alice, kind="timeout")
    assert timeout.send_after <= clock.now
    notifications.flush()
    assert Notification.objects.get(pk=timeout.pk).sent_at is not None


def _deadline_line(text: str) -> str | None:
    return next((line for line in text.splitlines() if line.startswith("Please play before")), None)


@pytest.mark.django_db
def test_each_mail_gives_its_reader_s_own_deadline_and_none_to_a_reader_who_owes_nothing(smtp, clock):
    import datetime as dt

    game, (alice, bob) = email_game()  # Alice moves first; Bob hears the game started
    started = Notification.objects.get(game=game, user=bob, kind="started")
    assert _deadline_line(body(_mail_for(smtp, started))) is None  # Bob owes nothing yet
    first = Notification.objects.get(game=game, user=alice, kind="turn")
    assert "1 p.m." in _deadline_line(body(_mail_for(smtp, first)))  # her own: noon and an hour to play
    # Both owe a discard, each with a deadline of their own: Bob's mail gives Bob's, not the game's (the earliest).
    state = rules.load(Game.objects.get(pk=game.pk).state)
    state.phase, state.discards_owed = "discard", [4, 4, 0]
    state.hands[0] = state.hands[1] = [2, 2, 2, 2, 1]
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state), deadline=clock.now + dt.timedelta(hours=1))
    game.seats.filter(index=0).update(deadline=clock.now + dt.timedelta(hours=1))
    game.seats.filter(index=1).update(deadline=clock.now + dt.timedelta(hours=3))
    row = Notification.objects.create(
        game=game, seq=game.seq, user=bob, kind="discard", created_at=clock.now, send_after=clock.now
    )
    line = _deadline_line(body(_mail_for(smtp, row)))
    assert line is not None and "3 p.m." in line and "1 p.m." not in line
