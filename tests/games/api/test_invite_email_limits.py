"""Issue 26, finding 7: invitations leave from the site's own sender, so what an inviter puts in them is held down.
Inviting by address needs the inviter's own address confirmed; each member sends at most INVITE_EMAILS_PER_DAY
invitations in 24 hours (known names, unknown names and addresses alike, requests at the same moment included);
the game's name is a quoted title with nothing a mail client would make a link of, and a new game's name may hold
no web address. Over the API (error envelope) and the waiting room's form (a readable message)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import SentInvitation
from games import services
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _waiting_game(alice=None, **kwargs):
    alice = alice or UserFactory()
    game = services.game_create(creator=alice, seat_count=3, bot_seats=[2], visibility="private", **kwargs)
    return game, alice


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _invite(user, game, to: str):
    return _api(user).post(f"/api/games/{game.pk}/invite/", {"to": to}, format="json")


def _error(response) -> str:
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"], body
    return body["error"]["code"]


def test_inviting_by_address_needs_the_inviters_own_address_confirmed(mailoutbox, django_capture_on_commit_callbacks):
    game, alice = _waiting_game()
    EmailAddress.objects.filter(user=alice).update(verified=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = _invite(alice, game, "stranger@example.org")
    assert response.status_code == 403 and _error(response) == "email_unconfirmed"
    assert "stranger@example.org" not in [to for mail in mailoutbox for to in mail.to]
    assert not SentInvitation.objects.exists()
    # The page says it in words.
    web = Client()
    web.force_login(alice)
    page = web.post(f"/games/{game.pk}/invite/", {"to": "stranger@example.org"}, follow=True)
    told = [str(m) for m in page.context["messages"]]
    assert told == ["Confirm your own email address (see your profile) before inviting someone by email."]
    assert not mailoutbox
    # A member, by name, still gets their invitation; and once confirmed, an address does too.
    bob = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        assert _invite(alice, game, bob.username).status_code == 200
    EmailAddress.objects.filter(user=alice).update(verified=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert _invite(alice, game, "stranger@example.org").status_code == 200
    assert sorted(to for mail in mailoutbox for to in mail.to) == sorted([bob.email, "stranger@example.org"])


def test_a_member_sends_at_most_the_daily_cap_of_invitations_names_and_addresses_alike(
    settings, mailoutbox, django_capture_on_commit_callbacks
):
    settings.INVITE_EMAILS_PER_DAY = 3
    game, alice = _waiting_game()
    bob = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        for to in (bob.username, "no-such-player-here", "one@example.org"):
            assert _invite(alice, game, to).status_code == 200
        refused = _invite(alice, game, "two@example.org")
    assert refused.status_code == 429 and _error(refused) == "invite_limit"
    assert "3 invitations" in refused.json()["error"]["message"]
    assert sorted(to for mail in mailoutbox for to in mail.to) == sorted([bob.email, "one@example.org"])
    # By name, over the page: refused the same way, whether or not the name is someone's.
    web = Client()
    web.force_login(alice)
    for name in (bob.username, "no-such-player-here"):
        page = web.post(f"/games/{game.pk}/invite/", {"to": name}, follow=True)
        (message,) = page.context["messages"]
        assert message.level_tag == "error" and "in the last 24 hours" in str(message)
    assert SentInvitation.objects.filter(inviter=alice).count() == 3
    # Another member has a cap of their own; a day later, Alice has hers back.
    carol = UserFactory()
    assert _invite(carol, _waiting_game(carol)[0], "two@example.org").status_code == 200
    SentInvitation.objects.filter(inviter=alice).update(created_at=timezone.now() - timedelta(hours=24, minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert _invite(alice, game, "two@example.org").status_code == 200
    assert "two@example.org" in [to for mail in mailoutbox for to in mail.to]


@pytest.mark.django_db(transaction=True)
def test_invitations_sent_at_the_same_moment_never_pass_the_cap_together(settings, mailoutbox):
    settings.INVITE_EMAILS_PER_DAY = 1
    game, alice = _waiting_game()
    start = threading.Barrier(4)
    answers: list[int] = []

    def invite(to: str) -> None:
        start.wait()
        try:
            answers.append(_invite(alice, game, to).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=invite, args=(f"friend{i}@example.org",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 429, 429, 429]
    assert SentInvitation.objects.filter(inviter=alice).count() == 1
    assert len(mailoutbox) == 1


def test_the_game_name_is_a_quoted_title_in_the_mail_and_nothing_in_it_is_a_link(
    mailoutbox, django_capture_on_commit_callbacks
):
    alice = UserFactory(display_name="gold.example")
    game, _alice = _waiting_game(alice, name="Friday")
    # A name from before links were refused.
    Game.objects.filter(pk=game.pk).update(name="Free gold: visit http://evil.example/x or www.evil.example\nnow")
    with django_capture_on_commit_callbacks(execute=True):
        assert _invite(alice, game, "stranger@example.org").status_code == 200
    (mail,) = mailoutbox
    text = f"{mail.subject}\n{mail.body}"
    assert "the game “Free gold: visit http[:]//evil[.]example/x or www[.]evil[.]example now”" in mail.body
    assert "gold[.]example invites you" in mail.subject
    assert "evil.example" not in text and "gold.example" not in text and "http://evil" not in text
    # The invite link itself is the site's, whole.
    assert f"/games/{game.pk}/?invite={game.invite_token}\n" in mail.body
    # In French for a member who reads French, quoted the French way.
    bob = UserFactory(language="fr")
    with django_capture_on_commit_callbacks(execute=True):
        assert _invite(alice, game, bob.username).status_code == 200
    assert "dans la partie « Free gold: visit http[:]//evil[.]example/x" in mailoutbox[-1].body


def test_a_new_games_name_may_hold_no_web_address_over_the_api_and_the_page():
    alice = UserFactory()
    payload = {"seat_count": 3, "bot_seats": [2], "options": {"seat_order": "fixed"}}
    for name in ("Free gold: visit http://evil.example", "see www.evil.example", "free-gold.example", "10.0.0.1"):
        response = _api(alice).post("/api/games/", {**payload, "name": name}, format="json")
        assert response.status_code == 400 and _error(response) == "bad_name", name
    assert not Game.objects.exists()
    web = Client()
    web.force_login(alice)
    page = web.post(
        "/games/new/",
        {
            "name": "gold at evil.example",
            "scenario": "base",
            "seat_count": 3,
            "bots": 2,
            "bot_level": "medium",
            "board": "variable",
            "clock": "live",
            "timeout_policy": "bot",
            "visibility": "public",
        },
    )
    assert page.status_code == 400 and "cannot contain a web address" in page.content.decode()
    assert not Game.objects.exists()
    for name in ("Friday night 1.5", "Catan: seafarers!", ""):
        response = _api(alice).post("/api/games/", {**payload, "name": name}, format="json")
        assert response.status_code == 201, (name, response.json())
        Game.objects.filter(pk=response.json()["id"]).update(status="cancelled")
