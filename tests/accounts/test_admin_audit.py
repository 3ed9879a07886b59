"""Issue 26, finding 8: the Django admin, driven by a logged-in superuser through its own forms. A change of a
person's powers (groups such as Moderators, staff, superuser, active, their own permissions), password or email
addresses, or of a group's permissions leaves an audit entry with who, whom, before and after; API tokens are
never added, edited or shown there, only revoked, and a revocation is audited."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group, Permission
from django.test import Client
from rest_framework.authtoken.models import Token

from moderation.models import AuditEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss() -> Client:
    admin_user = UserFactory(username="boss", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin_user)
    client.user = admin_user
    return client


def _change_form(user, **changes) -> dict:
    """The admin's change form for `user` as its page fills it, with `changes`."""
    data = {
        "username": user.username,
        "email": user.email,
        "first_name": "",
        "last_name": "",
        "is_active": "on",
        "groups": [],
        "user_permissions": [],
        "last_login_0": "",
        "last_login_1": "",
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "display_name": user.display_name,
        "language": user.language,
        "time_zone": user.time_zone,
        "notify": user.notify,
        "quiet_start": "",
        "quiet_end": "",
        "_save": "Save",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not False}


def test_making_someone_a_moderator_and_staff_in_the_admin_is_audited_with_before_and_after(boss):
    bob = UserFactory()
    moderators, _created = Group.objects.get_or_create(name="Moderators")
    response = boss.post(
        f"/admin/accounts/user/{bob.pk}/change/", _change_form(bob, groups=[moderators.pk], is_staff="on")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    bob.refresh_from_db()
    assert bob.is_staff and list(bob.groups.values_list("name", flat=True)) == ["Moderators"]
    (entry,) = AuditEntry.objects.filter(target_user=bob)
    assert entry.moderator == boss.user and entry.action == "admin_privileges_changed"
    assert entry.details == {
        "before": {"is_staff": False, "groups": []},
        "after": {"is_staff": True, "groups": ["Moderators"]},
    }
    # Taking it away again, and a permission of their own, superuser and active: each change, both ways.
    permission = Permission.objects.get(codename="moderate", content_type__app_label="games")
    response = boss.post(
        f"/admin/accounts/user/{bob.pk}/change/",
        _change_form(bob, user_permissions=[permission.pk], is_superuser="on", is_active=False),
    )
    assert response.status_code == 302
    latest = AuditEntry.objects.filter(target_user=bob).order_by("-pk").first()
    assert latest.details == {
        "before": {
            "is_active": True,
            "is_staff": True,
            "is_superuser": False,
            "groups": ["Moderators"],
            "user_permissions": [],
        },
        "after": {
            "is_active": False,
            "is_staff": False,
            "is_superuser": True,
            "groups": [],
            "user_permissions": ["games.moderate"],
        },
    }


def test_an_edit_that_changes_no_power_leaves_no_audit_entry(boss):
    bob = UserFactory()
    response = boss.post(f"/admin/accounts/user/{bob.pk}/change/", _change_form(bob, display_name="Bobby"))
    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.display_name == "Bobby" and not AuditEntry.objects.filter(target_user=bob).exists()


def test_a_groups_permissions_changed_in_the_admin_are_audited(boss):
    group = Group.objects.create(name="Helpers")
    permission = Permission.objects.get(codename="moderate", content_type__app_label="games")
    response = boss.post(
        f"/admin/auth/group/{group.pk}/change/", {"name": "Helpers", "permissions": [permission.pk], "_save": "Save"}
    )
    assert response.status_code == 302
    (entry,) = AuditEntry.objects.filter(action="admin_group_changed")
    assert entry.moderator == boss.user and entry.target_user is None
    assert entry.details == {
        "group": "Helpers",
        "before": {"permissions": []},
        "after": {"permissions": ["games.moderate"]},
    }


def test_the_admin_mints_no_token_and_never_shows_one(boss):
    alice = UserFactory()
    token = Token.objects.create(user=alice)
    assert boss.get("/admin/accounts/apitoken/add/").status_code == 403
    response = boss.post("/admin/accounts/apitoken/add/", {"user": boss.user.pk})
    assert response.status_code == 403 and not Token.objects.filter(user=boss.user).exists()
    # DRF's own token admin (which adds and edits) is gone.
    assert boss.get("/admin/authtoken/tokenproxy/add/").status_code == 404
    listing = boss.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200 and alice.username in listing.content.decode()
    page = boss.get(f"/admin/accounts/apitoken/{alice.pk}/change/")
    assert page.status_code == 200 and 'name="user"' not in page.content.decode()
    confirm = boss.get(f"/admin/accounts/apitoken/{alice.pk}/delete/")
    for shown in (listing, page, confirm):
        assert token.key not in shown.content.decode()
    # A change posted anyway changes nothing.
    assert boss.post(f"/admin/accounts/apitoken/{alice.pk}/change/", {"user": boss.user.pk}).status_code == 403
    assert Token.objects.get(pk=token.pk).user == alice


def test_revoking_a_token_in_the_admin_is_audited(boss):
    alice = UserFactory()
    Token.objects.create(user=alice)
    response = boss.post(f"/admin/accounts/apitoken/{alice.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Token.objects.filter(user=alice).exists()
    (entry,) = AuditEntry.objects.filter(action="api_token_revoked")
    assert entry.moderator == boss.user and entry.target_user == alice


def test_a_password_set_in_the_admin_is_audited(boss):
    """Whoever sets someone's password can log in as them: as much a power as a token."""
    alice = UserFactory()
    response = boss.post(
        f"/admin/accounts/user/{alice.pk}/password/",
        {"password1": "A new secret for alice 7", "password2": "A new secret for alice 7", "usable_password": "true"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("A new secret for alice 7")
    (entry,) = AuditEntry.objects.filter(target_user=alice)
    assert entry.moderator == boss.user and entry.action == "admin_password_set"
    assert entry.details == {"before": {"password": "previous"}, "after": {"password": "set"}}
    # A refused form (the two passwords differ) changes nothing and records nothing.
    response = boss.post(
        f"/admin/accounts/user/{alice.pk}/password/", {"password1": "One thing 12345", "password2": "Another 12345"}
    )
    assert response.status_code == 200 and AuditEntry.objects.filter(target_user=alice).count() == 1


def test_the_addresses_that_receive_a_persons_password_resets_are_audited_when_changed_in_the_admin(boss):
    """An address added, verified or made primary in the admin (or the account's own `email`) would let whoever
    set it reset the person's password: each change is audited, and so is a removal."""
    alice = UserFactory(email="alice@example.com")
    response = boss.post(f"/admin/accounts/user/{alice.pk}/change/", _change_form(alice, email="boss@evil.example"))
    assert response.status_code == 302
    (entry,) = AuditEntry.objects.filter(target_user=alice)
    assert entry.action == "admin_email_changed" and entry.moderator == boss.user
    assert entry.details == {"before": {"email": "alice@example.com"}, "after": {"email": "boss@evil.example"}}
    response = boss.post(
        "/admin/account/emailaddress/add/",
        {"user": alice.pk, "email": "second@evil.example", "primary": "", "_save": "Save"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    added = EmailAddress.objects.get(email="second@evil.example")
    latest = AuditEntry.objects.filter(target_user=alice).order_by("-pk").first()
    assert latest.action == "admin_email_changed"
    assert latest.details == {"before": {"email": None}, "after": {"email": "second@evil.example"}}
    response = boss.post(
        "/admin/account/emailaddress/", {"action": "make_verified", "_selected_action": [added.pk], "index": 0}
    )
    assert response.status_code == 302 and EmailAddress.objects.get(pk=added.pk).verified
    latest = AuditEntry.objects.filter(target_user=alice).order_by("-pk").first()
    assert latest.details == {"before": {"verified": False}, "after": {"verified": True}}
    response = boss.post(f"/admin/account/emailaddress/{added.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not EmailAddress.objects.filter(pk=added.pk).exists()
    latest = AuditEntry.objects.filter(target_user=alice).order_by("-pk").first()
    assert latest.details == {
        "before": {"email": "second@evil.example", "verified": True},
        "after": {"email": None, "verified": False},
    }
    assert AuditEntry.objects.filter(target_user=alice, action="admin_email_changed").count() == 4
