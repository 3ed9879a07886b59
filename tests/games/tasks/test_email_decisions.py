"""Deciding from the email: a link per common decision (a page with one button: scanners open links), and a
reply of one word to the notification's own address, taken by a real SMTP handler. Stale answers change nothing."""

from __future__ import annotations

import re
import smtplib

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

import rules
from games import services
from games.inbound import InboundHandler, answer
from games.mail import notifications
from games.models import Game, Move, Notification
from rules.ai.autoplay import timeout_action
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game as email_game
from tests.games.tasks.conftest import free_port
from tests.games.tasks.test_email_content import _play_setup
from tests.games.tasks.test_play_by_email import body
from tests.rules.positions import stream_for_roll


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


def _force_roll(game, total: int) -> None:
    """The next two dice of the game sum to `total`."""
    state = state_of(game)
    state.stream = stream_for_roll(total)
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state))


def _link(message, verb: str) -> str:
    return re.search(rf"http://testserver(/act/[0-9a-f]{{24}}/{verb}/)", body(message)).group(1)


def _reply(inbound, message, word: str) -> None:
    reply = (
        f"From: {message['To']}\r\nTo: {message['Reply-To']}\r\nSubject: Re\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{word}\r\n"
    )
    with smtplib.SMTP("127.0.0.1", inbound.port) as client:
        client.sendmail(message["To"], [message["Reply-To"]], reply.encode())


def _last_move(game) -> Move:
    return Move.objects.filter(game=game).latest("seq")


def _offer(smtp, game, users):
    """Set-up played; the first player rolls an 8 and offers a wool for an ore to both others, who can pay.
    Returns the two trade mails, in seat order."""
    _play_setup(game, users)
    first = state_of(game).current
    _force_roll(game, 8)
    services.move_submit(game_id=game.pk, user=users[first], action={"type": "roll"})
    state = state_of(game)
    state.hands = [[2, 2, 2, 2, 2] for _ in state.hands]
    state.bank = [19 - 2 * len(state.hands)] * 5
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state))
    offer = {"type": "offer_trade", "give": {"wool": 1}, "get": {"ore": 1}}
    services.move_submit(game_id=game.pk, user=users[first], action=offer)
    others = [u for i, u in enumerate(users) if i != first]
    mails = [smtp.to(u.email)[-1] for u in others]
    assert all("offers 1 wool for your 1 ore" in body(m) for m in mails)
    return others, mails


@pytest.mark.django_db(transaction=True)
def test_links_accept_and_reject_a_trade_and_a_stale_link_says_already_decided(smtp, clock):
    game, users = email_game(humans=3, bots=0)
    (bob, carol), (to_bob, to_carol) = _offer(smtp, game, users)
    assert Client().post(_link(to_bob, "accept")).status_code == 200
    assert _last_move(game).action == {"type": "accept_trade"} and _last_move(game).user_id == bob.pk
    assert Client().post(_link(to_carol, "reject")).status_code == 200
    assert _last_move(game).action == {"type": "reject_trade"} and _last_move(game).user_id == carol.pk
    moves = Move.objects.filter(game=game).count()
    for link in (_link(to_bob, "reject"), _link(to_carol, "accept")):  # the game has moved on
        again = Client().post(link)
        assert again.status_code == 409 and "already decided" in again.content.decode()
    assert Move.objects.filter(game=game).count() == moves


@pytest.mark.django_db(transaction=True)
def test_replies_accept_and_reject_a_trade_in_english_and_french_and_a_stale_reply_changes_nothing(
    smtp, clock, inbound
):
    game, users = email_game(humans=3, bots=0)
    (bob, carol), (to_bob, to_carol) = _offer(smtp, game, users)
    _reply(inbound, to_bob, "refuser")
    assert _last_move(game).action == {"type": "reject_trade"} and _last_move(game).user_id == bob.pk
    _reply(inbound, to_carol, "Accept, thanks")
    assert _last_move(game).action == {"type": "accept_trade"} and _last_move(game).user_id == carol.pk
    moves = Move.objects.filter(game=game).count()
    _reply(inbound, to_bob, "accept")
    assert Move.objects.filter(game=game).count() == moves
    code = to_bob["Reply-To"].split("+")[1].split("@")[0]
    assert answer(code, "accept", senders=[bob.email]) == "already_decided"


@pytest.mark.django_db(transaction=True)
def test_the_standing_discard_by_link_and_by_reply(smtp, clock, inbound):
    game, users = email_game(humans=3, bots=0)
    _play_setup(game, users)
    first = state_of(game).current
    state = state_of(game)
    for seat in range(3):
        state.hands[seat] = [2, 2, 2, 2, 1] if seat != first else [0, 0, 0, 0, 0]
    state.bank = [19 - sum(h[r] for h in state.hands) for r in range(5)]
    state.stream = stream_for_roll(7)
    Game.objects.filter(pk=game.pk).update(state=rules.dump(state))
    services.move_submit(game_id=game.pk, user=users[first], action={"type": "roll"})
    (one, two) = [users[i] for i in range(3) if i != first]
    to_one, to_two = smtp.to(one.email)[-1], smtp.to(two.email)[-1]
    assert "discard 4 of your 9 cards" in body(to_one) and "discard 4 of your 9 cards" in body(to_two)
    assert Client().post(_link(to_one, "discard")).status_code == 200
    _reply(inbound, to_two, "Défausser")
    state = state_of(game)
    seats = {u.pk: i for i, u in enumerate(users)}
    assert sum(state.hands[seats[one.pk]]) == 5 and sum(state.hands[seats[two.pk]]) == 5
    assert state.phase != "discard"
    stale = Client().post(_link(to_one, "discard"))
    assert stale.status_code == 409 and "already decided" in stale.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_roll_from_the_mail_that_leaves_the_player_to_act_mails_them_what_comes_next(smtp, clock, inbound):
    game, users = email_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    player = row.user
    seat = game.seats.get(user=player).index
    _force_roll(game, 8)
    before = len(smtp.to(player.email))
    assert Client().post(_link(message, "roll")).status_code == 200
    assert len(smtp.to(player.email)) == before + 1  # one mail: what comes next
    after = smtp.to(player.email)[-1]
    text = body(after)
    assert "You rolled 8: now build or end your turn." in text
    assert "http://testserver/play/" in text and _link(after, "end")
    assert "/roll/" not in text
    _reply(inbound, after, "end")  # the one-click end, by a reply this time
    assert _last_move(game).action == {"type": "end_turn"} and state_of(game).current != seat
    assert len(smtp.to(player.email)) == before + 1  # the turn is over: nothing more for them
    stale = Client().post(_link(after, "end"))
    assert stale.status_code == 409 and "already decided" in stale.content.decode()
