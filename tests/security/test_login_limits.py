"""Password guessing: the token endpoint and the admin log-in share allauth's failed-login limits (per
address and per account) with the web form, and a new X-Forwarded-For per try buys no extra guesses."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RIGHT = "the right one"


def token_try(client: APIClient, username: str, password: str, forwarded_for: str | None = None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for else {}
    return client.post("/api/token/", {"username": username, "password": password}, format="json", **headers)


def test_the_right_password_gets_a_token_after_a_few_wrong_ones():
    user = UserFactory(username="target", password=RIGHT)
    client = APIClient()
    for i in range(2):
        response = token_try(client, "target", f"wrong{i}")
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"
    response = token_try(client, "target", RIGHT)
    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=user).key


def test_five_wrong_passwords_lock_the_account_for_the_api_whatever_the_forwarded_address():
    UserFactory(username="target", password=RIGHT)
    client = APIClient()
    for i in range(5):
        assert token_try(client, "target", f"wrong{i}", forwarded_for=f"198.51.100.{i}").status_code == 400
    response = token_try(client, "target", RIGHT, forwarded_for="198.51.100.99")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "too_many_login_attempts"
    assert not Token.objects.exists()


def test_an_account_locked_on_the_web_form_gets_no_token():
    UserFactory(username="target", password=RIGHT)
    web = Client()
    for i in range(5):
        web.post("/accounts/login/", {"login": "target", "password": f"wrong{i}"})
    response = token_try(APIClient(), "target", RIGHT)
    assert response.status_code == 429 and response.json()["error"]["code"] == "too_many_login_attempts"
    assert not Token.objects.exists()


def test_an_account_locked_through_the_api_cannot_log_in_on_the_web_form():
    UserFactory(username="target", password=RIGHT)
    for i in range(5):
        token_try(APIClient(), "target", f"wrong{i}")
    web = Client()
    response = web.post("/accounts/login/", {"login": "target", "password": RIGHT})
    assert b"Too many failed login attempts" in response.content
    assert "_auth_user_id" not in web.session


def test_one_address_guessing_many_accounts_is_stopped_whatever_x_forwarded_for_says():
    """The peer is 127.0.0.1 with no trusted proxy: X-Forwarded-For is the attacker's to write."""
    for i in range(10):
        UserFactory(username=f"victim{i}", password=RIGHT)
    client = APIClient()
    statuses = [
        token_try(client, f"victim{i}", "guess", forwarded_for=f"203.0.113.{i}").status_code for i in range(10)
    ]
    assert statuses == [400] * 10
    response = token_try(client, "victim0", RIGHT, forwarded_for="203.0.113.200")
    assert response.status_code == 429, response.json()
    assert not Token.objects.exists()


def test_token_requests_are_throttled_per_username():
    """Past the failed-login lock-out, plain requests for one name are counted too (a slow, spread guess)."""
    UserFactory(username="target", password=RIGHT)
    client = APIClient()
    codes = [
        client.post("/api/token/", {"username": "target", "password": RIGHT}, REMOTE_ADDR=f"192.0.2.{i}").status_code
        for i in range(12)
    ]
    assert codes[:10] == [200] * 10 and codes[-1] == 429


def test_the_admin_log_in_is_behind_the_same_limits():
    UserFactory(username="boss", password=RIGHT, is_staff=True, is_superuser=True)
    client = Client()
    for i in range(30):
        client.post("/admin/login/?next=/admin/", {"username": "boss", "password": f"wrong{i}"})
    client.post("/admin/login/?next=/admin/", {"username": "boss", "password": RIGHT})
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302
    # The admin's own form is not served: it sends to the site's log-in, which counts failures.
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_staff_member_reaches_the_admin_through_the_site_log_in():
    UserFactory(username="boss", password=RIGHT, is_staff=True, is_superuser=True)
    client = Client()
    response = client.post("/accounts/login/?next=/admin/", {"login": "boss", "password": RIGHT})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_an_account_with_an_unconfirmed_address_gets_no_token():
    user = UserFactory(username="newcomer", password=RIGHT)
    EmailAddress.objects.filter(user=user).update(verified=False)
    response = token_try(APIClient(), "newcomer", RIGHT)
    assert response.status_code == 403 and response.json()["error"]["code"] == "email_unverified"
    assert not Token.objects.exists()


def test_failures_count_per_account_whether_the_login_is_the_username_or_the_email():
    """Three guesses by name and two by address are five for one account: the account is locked either way
    (allauth alone counts per login string, which gave an attacker five guesses per spelling)."""
    UserFactory(username="target", email="target@example.com", password=RIGHT)
    client = APIClient()
    for i in range(3):
        assert token_try(client, "target", f"wrong{i}", forwarded_for=f"198.51.100.{i}").status_code == 400
    for i in range(2):
        assert token_try(client, "TARGET@example.com", f"again{i}").status_code == 400
    response = token_try(client, "target@example.com", RIGHT)
    assert response.status_code == 429 and response.json()["error"]["code"] == "too_many_login_attempts"
    web = Client()
    response = web.post("/accounts/login/", {"login": "Target", "password": RIGHT})
    assert b"Too many failed login attempts" in response.content
    assert "_auth_user_id" not in web.session and not Token.objects.exists()


def test_guesses_at_unknown_logins_are_still_counted_per_login():
    """A login that names nobody keeps allauth's own key: guessing it is limited like any other."""
    client = APIClient()
    codes = [
        token_try(client, "nobody-here", f"guess{i}", forwarded_for=f"198.51.100.{i}").status_code for i in range(6)
    ]
    assert codes[:5] == [400] * 5 and codes[5] == 429


def test_a_password_reset_lifts_the_lock_out_of_the_account_locked_by_username():
    UserFactory(username="target", email="target@example.com", password=RIGHT)
    for i in range(5):
        token_try(APIClient(), "target", f"wrong{i}")
    assert token_try(APIClient(), "target", RIGHT).status_code == 429
    web = Client()
    assert web.post("/accounts/password/reset/", {"email": "target@example.com"}).status_code == 302
    link = re.search(r"https?://testserver(/accounts/password/reset/key/\S+)", mail.outbox[-1].body).group(1)
    form_url = web.get(link)["Location"]
    assert web.post(form_url, {"password1": "reset secret 9876", "password2": "reset secret 9876"}).status_code == 302
    assert token_try(APIClient(), "target", "reset secret 9876").status_code == 200
