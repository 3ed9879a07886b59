"""Hostile request bodies get the API's JSON error with a machine code, never HTML or a 500."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from django.test import Client
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


def _multipart_with_a_file(size: int) -> tuple[bytes, str]:
    boundary = "catanboundary"
    body = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nzz\r\n"
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nx\r\n"
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"big.bin\"\r\n"
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode() + b"\0" * size + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_a_file_in_a_form_body_is_refused_before_it_is_stored(tmp_path, settings):
    """No page or endpoint takes files: a file part (not counted by DATA_UPLOAD_MAX_MEMORY_SIZE) was written to a
    temporary file whatever its size, anonymous callers included, and a game was even created with one attached."""
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    body, content_type = _multipart_with_a_file(5 * 1024 * 1024)
    anonymous = APIClient(raise_request_exception=False)
    # The API takes JSON bodies only: a form body is refused at the door (415) before any part is read.
    response = anonymous.generic("POST", "/api/token/", body, content_type=content_type)
    assert response.status_code == 415 and error_code(response) == "unsupported_media_type"
    response = client_for(UserFactory()).generic("POST", "/api/games/", body, content_type=content_type)
    assert response.status_code == 415 and error_code(response) == "unsupported_media_type"
    assert not Game.objects.exists()
    assert list(tmp_path.iterdir()) == []  # nothing was written to disk
    # The web forms too: a clear 400, not a stored upload.
    web = Client(raise_request_exception=False)
    assert web.generic("POST", "/accounts/login/", body, content_type=content_type).status_code == 400
    assert list(tmp_path.iterdir()) == []


def test_a_token_for_a_json_body():
    """Scripts post JSON (a form body is refused with 415: tests/api/test_contract.py)."""
    user = UserFactory(username="formposter", password="the right one")
    response = APIClient().post("/api/token/", {"username": "formposter", "password": "the right one"})
    assert response.status_code == 200 and response.json()["token"]
    assert user.auth_token.key == response.json()["token"]
