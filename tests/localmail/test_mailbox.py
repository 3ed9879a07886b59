"""make run's local mailbox (localmail/): the mail the site sent, read in the browser, and a reply typed there that
reaches the real inbound mail handler over SMTP and plays the decision, as a reply from a mail program would."""

from __future__ import annotations

import os
import time

import pytest
from django.test import Client

from games.models import Move
from tests.games.tasks.conftest import async_game, clock, smtp  # noqa: F401 (fixtures)
from tests.games.tasks.test_email_decisions import _turn_mail, inbound  # noqa: F401 (fixture)


def _keep(folder, message) -> str:
    """What the catcher does with a mail it accepts (devstack/mailcatcher.py): one .eml file."""
    name = f"{time.time_ns()}-{os.getpid()}-000000"
    (folder / f"{name}.eml").write_bytes(message.as_bytes())
    return name


@pytest.fixture
def mailbox(settings, tmp_path, inbound):  # noqa: F811
    settings.LOCAL_MAILBOX_DIR = str(tmp_path)
    settings.LOCAL_INBOUND_SMTP = f"127.0.0.1:{inbound.port}"
    return tmp_path


@pytest.mark.django_db
def test_without_a_mailbox_folder_the_page_does_not_exist(settings):
    settings.LOCAL_MAILBOX_DIR = ""
    assert Client().get("/local/mail/").status_code == 404
    assert Client().post("/local/mail/1-2-000003/reply/", {"text": "roll"}).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_reply_typed_on_the_page_rolls_the_dice_through_the_inbound_handler(smtp, clock, mailbox):  # noqa: F811
    game, users = async_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    name = _keep(mailbox, message)
    player = users[[u.pk for u in users].index(row.user_id)]

    client = Client()
    client.force_login(player)
    page = client.get("/local/mail/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "[Catan] Your turn — " in text and f"/local/mail/{name}/reply/" in text
    assert client.get("/local/mail/", {"to": "nobody@example.com"}).content.decode().count("mail-body") == 0

    before = Move.objects.filter(game=game).count()
    answer = client.post(f"/local/mail/{name}/reply/", {"text": "roll"}, follow=True)
    assert answer.status_code == 200 and "Reply sent" in answer.content.decode()
    roll = Move.objects.filter(game=game).order_by("seq")[before]
    assert roll.action == {"type": "roll"} and roll.user_id == player.pk


@pytest.mark.django_db(transaction=True)
def test_bad_replies_are_refused_with_a_message_and_change_nothing(smtp, clock, mailbox, settings):  # noqa: F811
    game, users = async_game(humans=3, bots=0)
    row, message = _turn_mail(smtp, game, users)
    name = _keep(mailbox, message)
    del message["Reply-To"]
    no_reply = _keep(mailbox, message)
    client = Client()
    before = Move.objects.filter(game=game).count()

    empty = client.post(f"/local/mail/{name}/reply/", {"text": "  "}, follow=True)
    assert "Type a reply" in empty.content.decode()
    refused = client.post(f"/local/mail/{no_reply}/reply/", {"text": "roll"}, follow=True)
    assert "takes no reply" in refused.content.decode()
    assert client.post("/local/mail/..%2F..%2Fetc%2Fpasswd/reply/", {"text": "roll"}).status_code == 404
    assert client.post("/local/mail/1-2-000003/reply/", {"text": "roll"}).status_code == 404
    assert client.get(f"/local/mail/{name}/reply/").status_code == 405

    settings.LOCAL_INBOUND_SMTP = f"127.0.0.1:{_closed_port()}"
    down = client.post(f"/local/mail/{name}/reply/", {"text": "roll"}, follow=True)
    assert down.status_code == 200 and "did not answer" in down.content.decode()
    assert Move.objects.filter(game=game).count() == before


def _closed_port() -> int:
    from devstack.embedded import free_port

    return free_port()
