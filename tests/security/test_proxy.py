"""Behind a proxy: uvicorn takes the client's address from X-Forwarded-For only when the connection comes from
a trusted proxy (FORWARDED_ALLOW_IPS); from anyone else the header changes nothing the limits count."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def token_try(port: int, username: str, forwarded_for: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/token/",
        data=json.dumps({"username": username, "password": "a guess"}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def guesses(port: int) -> list[int]:
    """Eleven wrong passwords for eleven accounts, each claiming another address."""
    return [token_try(port, f"victim{i}", f"203.0.113.{i}") for i in range(11)]


def test_a_spoofed_forwarded_for_from_an_untrusted_peer_changes_no_identity(serve):
    for i in range(11):
        UserFactory(username=f"victim{i}")
    # The test client connects from 127.0.0.1, which is not the proxy here.
    port = serve(FORWARDED_ALLOW_IPS="192.0.2.1")
    statuses = guesses(port)
    assert statuses[:10] == [400] * 10 and statuses[10] == 429, statuses


def test_the_trusted_proxy_forwards_each_clients_own_address(serve):
    for i in range(11):
        UserFactory(username=f"victim{i}")
    port = serve(FORWARDED_ALLOW_IPS="127.0.0.1")
    assert guesses(port) == [400] * 11


def healthz_checks(port: int, forwarded_for: str | None = None) -> dict:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["checks"]


def test_healthz_details_go_to_local_callers_not_to_clients_behind_the_proxy(serve):
    port = serve(FORWARDED_ALLOW_IPS="127.0.0.1")
    assert all("detail" in check for check in healthz_checks(port).values())
    remote = healthz_checks(port, forwarded_for="203.0.113.7")
    assert remote == {"database": {"ok": True}, "channel_layer": {"ok": True}, "broker": {"ok": True}}
