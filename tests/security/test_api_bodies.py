"""Hostile request bodies get the API's JSON error with a machine code, never HTML or a 500."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client


def error_code(response) -> str:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"], body
    return body["error"]["code"]


def test_a_ten_megabyte_body_gets_a_json_413():
    body = b'{"name": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    response = client_for(UserFactory()).generic("POST", "/api/games/", body, content_type="application/json")
    assert response.status_code == 413 and error_code(response) == "too_large"
    assert not Game.objects.exists()


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deeply_nested_json_gets_a_json_400_on_create(depth):
    body = b'{"seat_count": 3, "options": ' + nested(depth) + b"}"
    response = client_for(UserFactory()).generic("POST", "/api/games/", body, content_type="application/json")
    assert response.status_code == 400 and error_code(response) == "too_deep"
    assert not Game.objects.exists()


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deeply_nested_json_gets_a_json_400_on_a_move(depth):
    game, (alice, _) = started_game()
    body = b'{"action": {"type": "build_road", "edge": ' + nested(depth) + b"}}"
    response = client_for(alice).generic("POST", f"/api/games/{game.pk}/moves/", body, content_type="application/json")
    assert response.status_code == 400 and error_code(response) == "too_deep"
    game.refresh_from_db()
    assert game.seq == 0


def test_broken_json_gets_a_json_400():
    response = client_for(UserFactory()).generic(
        "POST", "/api/games/", b'{"seat_count": ', content_type="application/json"
    )
    assert response.status_code == 400 and error_code(response) == "parse_error"


@pytest.mark.django_db(transaction=True)
def test_hostile_bodies_through_a_real_server(serve):
    key = Token.objects.create(user=UserFactory()).key
    port = serve()

    def post(body: bytes) -> tuple[int, dict]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games/",
            data=body,
            headers={"Content-Type": "application/json", "Authorization": f"Token {key}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            assert error.headers["Content-Type"].startswith("application/json")
            return error.code, json.loads(error.read())

    status, body = post(b'{"name": "' + b"x" * (10 * 1024 * 1024) + b'"}')
    assert (status, body["error"]["code"]) == (413, "too_large")
    status, body = post(b'{"seat_count": 3, "options": ' + nested(100_000) + b"}")
    assert (status, body["error"]["code"]) == (400, "too_deep")
    assert not Game.objects.exists()
