"""Deciding from the email: a link per common decision (a page with one button: scanners open links), and a
reply of one word to the notification's own address, taken by a real SMTP handler. Stale answers change nothing."""

from __future__ import annotations

import re
import smtplib

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

import rules
from games import notifications, services
from games.autoplay import timeout_action
from games.inbound import InboundHandler
from games.models import Move, Notification
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game as email_game
from tests.games.tasks.conftest import free_port
from tests.games.tasks.test_email_content import _play_setup
from tests.games.tasks.test_play_by_email import body


@pytest.fixture
def inbound(settings):
    settings.INBOUND_EMAIL_DOMAIN = "reply.example.org"
    controller = Controller(InboundHandler(), hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller
    controller.stop()


def _turn_mail(smtp, game, users):
    """Play the set-up and the first turn; the next player's 'your turn, roll' mail."""
    _play_setup(game, users)
    first = state_of(game).current
    services.move_submit(game_id=game.pk, user=users[first], action={"type": "roll"})
    while state_of(game).phase != "main":  # a 7: the discards and the robber first
        state = state_of(game)
        seat = rules.to_move(state)[0]
        action = timeout_action(state, seat, "bot", seed=state.version)
        services.move_submit(game_id=game.pk, user=users[seat], action=action)
    services.move_submit(game_id=game.pk, user=users[first], action={"type": "end_turn"})
    state = state_of(game)
    row = Notification.objects.filter(game=game, user=users[state.current], kind="turn").latest("seq")
    notifications.send(row.pk)  # sent already after the commit; a second try sends nothing more
    row.refresh_from_db()
    assert row.sent_at is not None
    return row, smtp.to(users[state.current].email)[-1]


@pytest.mark.django_db(transaction=True)
def test_a_link_in_the_mail_rolls_once_and_then_says_already_decided(smtp, clock):
    game, users = email_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    link = re.search(r"http://testserver(/act/[0-9a-f]{24}/roll/)", body(message)).group(1)
    before = Move.objects.filter(game=game).count()
    page = Client().get(link)  # what a mail scanner does: nothing happens
    assert page.status_code == 200 and b'method="post"' in page.content
    assert Move.objects.filter(game=game).count() == before
    assert Client().post(link).status_code == 200
    assert Move.objects.filter(game=game).count() > before
    assert Move.objects.filter(game=game).latest("seq").action == {"type": "roll"} or state_of(game).phase != "main"
    again = Client().post(link)
    assert again.status_code == 409 and "already decided" in again.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_one_word_reply_rolls_the_dice(smtp, clock, inbound):
    game, users = email_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    reply_to = message["Reply-To"]
    assert reply_to == f"play+{row.action_code}@reply.example.org"
    seq = game.__class__.objects.get(pk=game.pk).seq
    reply = (
        f"From: {row.user.email}\r\nTo: {reply_to}\r\nSubject: Re: your turn\r\n\r\n"
        "Roll!\r\n\r\nOn Monday, Catan wrote:\r\n> roll the dice\r\n"
    )
    with smtplib.SMTP("127.0.0.1", inbound.port) as client:
        client.sendmail(row.user.email, [reply_to], reply.encode())
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.sendmail(row.user.email, ["play+000000000000000000000000@elsewhere.org"], reply.encode())
    roll = Move.objects.get(game=game, seq=seq + 1)
    assert roll.action == {"type": "roll"} and roll.user_id == row.user_id
    rules.load(game.__class__.objects.get(pk=game.pk).state)  # the game goes on
