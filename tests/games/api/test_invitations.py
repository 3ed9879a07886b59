"""Inviting by name, over the API and from the waiting room's form: the answer never shows a member's email
address, and a known name, an unknown one and a member without an address get the same answer (same status, same
shape, same words), so names cannot be listed by inviting them."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _waiting_game():
    alice = UserFactory()
    game = services.game_create(
        creator=alice, seat_count=3, bot_seats=[2], visibility="private", options={"seat_order": "fixed"}
    )
    return game, alice


def _names() -> tuple[object, list[str]]:
    """A member with an address, a member without one, and a name no one has."""
    bob = UserFactory(email="bob.private@example.net")
    silent = UserFactory()
    type(silent).objects.filter(pk=silent.pk).update(email="")
    return bob, [bob.username, silent.username, "no-such-player-here"]


def test_inviting_by_name_over_the_api_never_shows_the_address_and_answers_unknown_names_alike():
    game, alice = _waiting_game()
    bob, names = _names()
    client = APIClient()
    client.force_authenticate(alice)
    answers = set()
    for name in names:
        response = client.post(f"/api/games/{game.pk}/invite/", {"to": name}, format="json")
        assert bob.email not in response.content.decode()
        data = response.json()
        answers.add((response.status_code, tuple(sorted(data)), str(data.get("message", "")).replace(name, "NAME")))
    assert len(answers) == 1, answers
    ((status, keys, _message),) = answers
    assert status == 200 and keys == ("invited", "message")
    by_address = client.post(f"/api/games/{game.pk}/invite/", {"to": "friend@example.org"}, format="json")
    assert by_address.status_code == 200 and by_address.json()["invited"] == "friend@example.org"


def test_the_waiting_rooms_form_never_shows_the_address_and_answers_unknown_names_alike():
    game, alice = _waiting_game()
    bob, names = _names()
    client = Client()
    client.force_login(alice)
    told = set()
    for name in names:
        response = client.post(f"/games/{game.pk}/invite/", {"to": name}, follow=True)
        assert response.status_code == 200 and bob.email not in response.content.decode()
        messages = tuple((m.level_tag, str(m).replace(name, "NAME")) for m in response.context["messages"])
        assert messages
        told.add(messages)
    assert len(told) == 1, told
