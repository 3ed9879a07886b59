"""Ranks: only a superuser sanctions (warns, suspends, bans, restores) staff or moderators, and no one sanctions
themselves; a refusal is a 403 with its own code and a readable message, on the API, the person page and the
report queue, and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from moderation import services as moderation
from moderation.models import AuditEntry, Report, Sanction
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db

OUTRANKED = "Only a superuser can sanction staff or moderators."


def _moderator(**fields):
    user = UserFactory(**fields)
    user.groups.add(moderation.moderators_group())
    return type(user).objects.get(pk=user.pk)  # fresh permission cache


def _superuser():
    return UserFactory(is_superuser=True, is_staff=True)


def _act(moderator, target, action: str, **more):
    client = APIClient()
    client.force_authenticate(moderator)
    body = {"action": action, "reason": "taking over", "days": 3, **more}
    return client.post(f"/api/moderation/users/{target.pk}/", body, format="json")


def _untouched(user) -> bool:
    user.refresh_from_db()
    return user.is_active and not user.banned and user.suspended_until is None


TARGETS = {
    "superuser": _superuser,
    "staff": lambda: UserFactory(is_staff=True),
    "moderator": _moderator,
}


@pytest.mark.parametrize("action", ["warn", "suspend", "ban"])
@pytest.mark.parametrize("kind", sorted(TARGETS))
def test_a_plain_moderator_cannot_sanction_a_superuser_staff_or_another_moderator(kind, action):
    target = TARGETS[kind]()
    response = _act(_moderator(), target, action)
    assert response.status_code == 403
    assert response.json()["error"] == {"code": "outranked", "message": OUTRANKED}
    assert _untouched(target)
    assert not Sanction.objects.filter(user=target).exists() and not AuditEntry.objects.exists()


def test_no_one_sanctions_themselves_not_even_a_superuser():
    for user in (_superuser(), _moderator()):
        response = _act(user, user, "ban")
        assert response.status_code == 403 and response.json()["error"]["code"] == "own_account"
        assert response.json()["error"]["message"]
        assert _untouched(user)
    assert not Sanction.objects.exists() and not AuditEntry.objects.exists()


def test_a_superuser_sanctions_a_moderator_whom_a_plain_moderator_cannot_restore():
    root, target, other = _superuser(), _moderator(), _moderator()
    assert _act(root, target, "ban").status_code == 200
    target.refresh_from_db()
    assert target.banned
    # Banned, the account is inactive: it is still a moderator's, and only a superuser lifts the ban.
    response = _act(other, target, "restore")
    assert response.status_code == 403 and response.json()["error"]["code"] == "outranked"
    target.refresh_from_db()
    assert target.banned
    assert _act(root, target, "restore").status_code == 200
    player = UserFactory()
    assert _act(other, player, "warn").status_code == 200  # players are a moderator's to sanction, as before
    assert Sanction.objects.filter(user=player, kind="warning").exists()


def test_the_person_page_says_why_and_offers_no_sanction_and_a_forced_post_changes_nothing():
    moderator, root = _moderator(), _superuser()
    client = Client()
    client.force_login(moderator)
    page = client.get(f"/moderation/users/{root.pk}/").content.decode()
    assert OUTRANKED in page and 'value="ban"' not in page
    response = client.post(f"/moderation/users/{root.pk}/", {"action": "ban", "reason": "x"}, follow=True)
    assert response.status_code == 200 and OUTRANKED in response.content.decode()
    assert _untouched(root) and not AuditEntry.objects.exists()
    player_page = client.get(f"/moderation/users/{UserFactory().pk}/").content.decode()
    assert OUTRANKED not in player_page and 'value="ban"' in player_page


def test_a_report_about_a_moderator_does_not_let_a_plain_moderator_ban_them():
    game, (alice, bob) = started_game()
    bob.groups.add(moderation.moderators_group())
    report = services.report_create(reporter=alice, game_id=game.pk, reason="rude", user_id=bob.pk)
    client = APIClient()
    client.force_authenticate(_moderator())
    response = client.post(f"/api/moderation/reports/{report.pk}/", {"action": "ban", "reason": "rude"}, format="json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "outranked"
    assert Report.objects.get(pk=report.pk).status == Report.Status.OPEN and _untouched(bob)
    client.force_authenticate(_superuser())
    response = client.post(f"/api/moderation/reports/{report.pk}/", {"action": "warn", "reason": "rude"}, format="json")
    assert response.status_code == 200 and Sanction.objects.filter(user=bob, kind="warning").exists()
