"""Replies by email, through the real inbound SMTP handler: a reply plays only when it comes from the address the
player has on file (envelope sender or From header, in any case) as well as to the mail's own reply address; a
reply refused or not understood is answered, to its sender, saying why; a bounce is never answered."""

from __future__ import annotations

import smtplib

import pytest

from games.models import Game, Move
from tests.games.tasks.conftest import async_game as email_game
from tests.games.tasks.test_email_decisions import _reply, _turn_mail
from tests.games.tasks.test_email_decisions import inbound as inbound  # noqa: F401 (the fixture)
from tests.games.tasks.test_play_by_email import body

ANSWER = "Your reply to the game was not played"


def _send(inbound, envelope_sender: str, to: str, text: str, headers: str = "") -> None:
    mail = f"From: {headers or envelope_sender}\r\nTo: {to}\r\nSubject: Re: your turn\r\n\r\n{text}\r\n"
    with smtplib.SMTP("127.0.0.1", inbound.port) as client:
        client.sendmail(envelope_sender, [to], mail.encode())


def _seq(game) -> int:
    return Game.objects.get(pk=game.pk).seq


def _answers(smtp, address: str) -> list:
    return [m for m in smtp.to(address) if m["Subject"] == ANSWER]


@pytest.mark.django_db(transaction=True)
def test_a_reply_from_another_address_plays_nothing_and_its_sender_is_told_why(smtp, clock, inbound):  # noqa: F811
    game, users = email_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    seq = _seq(game)
    _send(inbound, "mallory@evil.example", message["Reply-To"], "roll")
    assert _seq(game) == seq
    (told,) = _answers(smtp, "mallory@evil.example")
    text = body(told)
    assert "did not come from the email address this player has on file" in text
    assert row.user.email not in text and row.user.email not in told["To"]


@pytest.mark.django_db(transaction=True)
def test_the_players_address_in_the_envelope_or_the_from_header_in_any_case_plays(smtp, clock, inbound):  # noqa: F811
    game, users = email_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    seq = _seq(game)
    # A forwarding service rewrites the envelope sender; the From header is still the player's, in capitals.
    _send(inbound, "bounces+xyz@forwarder.example", message["Reply-To"], "roll", f"Me <{row.user.email.upper()}>")
    roll = Move.objects.get(game=game, seq=seq + 1)
    assert roll.action == {"type": "roll"} and roll.user_id == row.user_id
    assert not _answers(smtp, "bounces+xyz@forwarder.example") and not _answers(smtp, row.user.email)


@pytest.mark.django_db(transaction=True)
def test_a_reply_not_understood_html_only_or_stale_is_answered_with_why(smtp, clock, inbound):  # noqa: F811
    game, users = email_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    player, reply_to, seq = row.user.email, message["Reply-To"], _seq(game)

    _reply(inbound, message, "banana")
    html = (
        f"From: {player}\r\nTo: {reply_to}\r\nSubject: Re\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/html; charset=utf-8\r\n\r\n<p>roll</p>\r\n"
    )
    with smtplib.SMTP("127.0.0.1", inbound.port) as client:
        client.sendmail(player, [reply_to], html.encode())
    assert _seq(game) == seq
    not_understood, html_only = (body(m) for m in _answers(smtp, player))
    assert "not understood" in not_understood and "accept, reject, roll, end or discard" in not_understood
    assert "no plain text" in html_only

    _reply(inbound, message, "roll")
    assert Move.objects.get(game=game, seq=seq + 1).action == {"type": "roll"}
    assert len(_answers(smtp, player)) == 2  # a reply that played is not answered
    _reply(inbound, message, "roll")  # the same mail again: the game has moved on
    assert "already decided" in body(_answers(smtp, player)[-1]) and len(_answers(smtp, player)) == 3

    with smtplib.SMTP("127.0.0.1", inbound.port) as client:  # a bounce (empty envelope sender): never answered
        client.sendmail("", [reply_to], f"From: {player}\r\nTo: {reply_to}\r\n\r\nbanana\r\n".encode())
    assert len(_answers(smtp, player)) == 3


@pytest.mark.django_db(transaction=True)
def test_the_answer_is_in_the_players_language(smtp, clock, inbound):  # noqa: F811
    game, users = email_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    type(row.user).objects.filter(pk=row.user_id).update(language="fr")
    before = len(smtp.to(row.user.email))
    _reply(inbound, message, "banane")
    (told,) = smtp.to(row.user.email)[before:]
    assert "pas été comprise" in body(told) and "accepter, refuser, lancer" in body(told)
