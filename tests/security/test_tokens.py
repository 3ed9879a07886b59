"""API tokens expire (401, code token_expired) and a new password ends them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def me(key: str):
    return APIClient().get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}")


def obtain(username: str, password: str = PASSWORD) -> str:
    response = APIClient().post("/api/token/", {"username": username, "password": password}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["token"]


def test_a_password_change_on_the_site_ends_the_old_token():
    user = UserFactory()
    key = obtain(user.username)
    assert me(key).status_code == 200
    web = Client()
    web.force_login(user)
    response = web.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "a brand new secret 42", "password2": "a brand new secret 42"},
    )
    assert response.status_code == 302
    refused = me(key)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "authentication_failed"
    assert obtain(user.username, "a brand new secret 42") != key


def test_a_password_reset_by_an_administrator_ends_the_old_token(monkeypatch):
    user = UserFactory()
    key = obtain(user.username)
    answers = iter(["another secret 77", "another secret 77"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command("changepassword", user.username, stdout=open("/dev/null", "w"))
    assert me(key).status_code == 401


def test_a_password_hash_upgrade_at_log_in_keeps_the_token(settings):
    user = UserFactory()
    key = obtain(user.username)
    # Log-ins rehash a password stored with an older hasher: the password itself did not change.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher", *settings.PASSWORD_HASHERS]
    assert Client().login(username=user.username, password=PASSWORD)
    user.refresh_from_db()
    assert user.password.startswith("pbkdf2_sha1$")
    assert me(key).status_code == 200


def test_an_expired_token_gets_401_with_its_own_code_and_a_new_one_is_issued(settings):
    settings.API_TOKEN_LIFETIME_DAYS = 30
    user = UserFactory()
    key = obtain(user.username)
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(days=30, seconds=1))
    response = me(key)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["error"]["code"] == "token_expired"
    fresh = obtain(user.username)
    assert fresh != key and me(fresh).status_code == 200


def test_a_password_reset_by_email_ends_the_old_token():
    user = UserFactory()
    key = obtain(user.username)
    web = Client()
    assert web.post("/accounts/password/reset/", {"email": user.email}).status_code == 302
    link = re.search(r"https?://testserver(/accounts/password/reset/key/\S+)", mail.outbox[-1].body).group(1)
    form_url = web.get(link)["Location"]  # allauth moves the key out of the address before showing the form
    response = web.post(form_url, {"password1": "reset secret 9876", "password2": "reset secret 9876"})
    assert response.status_code == 302
    assert me(key).status_code == 401
