"""The REST API: create / join / start / move / leave, and a clear 4xx for each misuse."""

import pytest
from rest_framework.test import APIClient

import rules
from games.models import Game, Move
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def error_code(response) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"]
    return body["error"]["code"]


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def bob():
    return UserFactory(username="bob")


def create(user, **data):
    payload = {"seat_count": 3, "bot_seats": [2], "options": {"seat_order": "fixed"}, **data}
    return client_for(user).post("/api/games/", payload, format="json")


def test_create_join_start_move_leave(alice, bob):
    response = create(alice)
    assert response.status_code == 201, response.json()
    game_id = response.json()["id"]
    assert response.json()["your_seat"] == 0

    listed = client_for().get("/api/games/").json()
    assert [g["id"] for g in listed] == [game_id]

    response = client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    assert response.status_code == 200 and response.json()["your_seat"] == 1

    response = client_for(alice).post(f"/api/games/{game_id}/start/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active" and body["view"]["phase"] == "setup_settlement"
    action = body["legal"][0]

    response = client_for(alice).post(
        f"/api/games/{game_id}/moves/", {"action": action, "expected_seq": 0, "idempotency_key": "a1"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["seq"] == 1 and response.json()["game"]["seq"] == 1

    log = client_for(bob).get(f"/api/games/{game_id}/moves/?since=0").json()
    assert log["seq"] == 1 and log["moves"][0]["events"][0]["type"] == "built_settlement"

    mine = client_for(alice).get("/api/games/mine/").json()
    assert mine[0]["id"] == game_id and mine[0]["waiting_on_you"] is True


def test_create_misuse(alice):
    assert client_for().post("/api/games/", {}, format="json").status_code in (401, 403)
    for data, code in (
        # What the schema states (an enum, a range, the options' shape) is checked with it: `invalid`.
        ({"scenario": "atlantis"}, "invalid"),
        ({"seat_count": 9}, "invalid"),
        ({"options": {"board": "square"}}, "invalid"),
        ({"options": {"colour": "red"}}, "invalid"),
        ({"bot_seats": [0]}, "invalid"),
        ({"visibility": "secret"}, "invalid"),
        # What the rules judge from several fields together has its own code.
        ({"seat_count": 3, "bot_seats": [3]}, "bad_bot_seats"),
        ({"scenario": "base", "seat_count": 6}, "bad_player_count"),
    ):
        response = create(alice, **data)
        assert response.status_code == 400, data
        assert error_code(response) == code
    assert not Game.objects.exists()


def test_join_misuse(alice, bob):
    game_id = create(alice).json()["id"]
    assert error_code(client_for(alice).post(f"/api/games/{game_id}/join/", {}, format="json")) == "already_seated"
    assert client_for(bob).post("/api/games/999999/join/", {}, format="json").status_code == 404
    private = create(alice, visibility="private").json()
    response = client_for(bob).post(f"/api/games/{private['id']}/join/", {}, format="json")
    assert response.status_code == 403 and error_code(response) == "invite_required"
    token = Game.objects.get(pk=private["id"]).invite_token
    response = client_for(bob).post(f"/api/games/{private['id']}/join/", {"invite": token}, format="json")
    assert response.status_code == 200
    assert client_for(UserFactory()).get(f"/api/games/{private['id']}/").status_code == 404


def test_start_misuse(alice, bob):
    game_id = create(alice).json()["id"]
    response = client_for(alice).post(f"/api/games/{game_id}/start/")
    assert response.status_code == 409 and error_code(response) == "seats_open"
    client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    response = client_for(bob).post(f"/api/games/{game_id}/start/")
    assert response.status_code == 403 and error_code(response) == "not_creator"
    assert client_for(alice).post(f"/api/games/{game_id}/start/").status_code == 200
    response = client_for(alice).post(f"/api/games/{game_id}/start/")
    assert response.status_code == 409 and error_code(response) == "already_started"


def test_move_misuse(alice, bob):
    game_id = create(alice).json()["id"]
    client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    legal = client_for(alice).post(f"/api/games/{game_id}/start/").json()["legal"]
    url = f"/api/games/{game_id}/moves/"
    cases = (
        (client_for(), {"action": legal[0]}, (401, 403)),
        (client_for(UserFactory()), {"action": legal[0]}, (403,)),
        (client_for(bob), {"action": legal[0]}, (400,)),
        (client_for(alice), {"action": "roll"}, (400,)),
        (client_for(alice), {}, (400,)),
        (client_for(alice), {"action": {"type": "roll"}}, (400,)),
        (client_for(alice), {"action": {"type": "build_settlement", "vertex": -1}}, (400,)),
        (client_for(alice), {"action": legal[0], "expected_seq": 5}, (409,)),
    )
    for client, body, statuses in cases:
        response = client.post(url, body, format="json")
        assert response.status_code in statuses, (body, response.json())
        error_code(response)
    assert not Move.objects.exists()
    assert Game.objects.get(pk=game_id).seq == 0


def test_leave_misuse(alice, bob):
    game_id = create(alice).json()["id"]
    response = client_for(bob).post(f"/api/games/{game_id}/leave/")
    assert response.status_code == 409 and error_code(response) == "not_seated"
    client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    assert client_for(bob).post(f"/api/games/{game_id}/leave/").status_code == 200
    client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    client_for(alice).post(f"/api/games/{game_id}/start/")
    response = client_for(bob).post(f"/api/games/{game_id}/leave/")
    assert response.status_code == 409 and error_code(response) == "already_started"


def test_views_hide_other_hands(alice, bob):
    game_id = create(alice).json()["id"]
    client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    client_for(alice).post(f"/api/games/{game_id}/start/")
    mine = client_for(alice).get(f"/api/games/{game_id}/").json()["view"]
    spectator = client_for().get(f"/api/games/{game_id}/").json()
    assert "resources" in mine["seats"][0] and "resources" not in mine["seats"][1]
    assert all("resources" not in s for s in spectator["view"]["seats"])
    assert spectator["legal"] == [] and spectator["seed"] is None
    stored = Game.objects.get(pk=game_id)
    assert spectator["seed_commitment"] == rules.chance.seed_commitment(stored.seed, stored.seed_salt)
    assert spectator["seed_salt"] is None


def test_chat_is_for_players_and_capped(alice, bob):
    game_id = create(alice).json()["id"]
    url = f"/api/games/{game_id}/chat/"
    assert client_for(alice).post(url, {"text": "hello <b>all</b>"}, format="json").status_code == 201
    assert client_for(bob).post(url, {"text": "hi"}, format="json").status_code == 403
    assert client_for(alice).post(url, {"text": "x" * 501}, format="json").status_code == 400
    assert client_for(alice).post(url, {"text": "   "}, format="json").status_code == 400
    messages = client_for().get(url).json()
    assert [m["text"] for m in messages] == ["hello <b>all</b>"]


def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/games/{game_id}/moves/" in schema.content
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.parametrize("game_id", [2**63, 2**64, 10**40])
def test_a_game_id_beyond_the_database_range_is_not_found(alice, game_id):
    """An id no bigint holds (the schema fuzzer sent 2**64) is a 404 like any unknown game, on every route that
    takes one: the refusal is logged with the id as given, and the log line must not fail on it."""
    client = client_for(alice)
    calls = (
        ("get", f"/api/games/{game_id}/", None),
        ("get", f"/api/games/{game_id}/moves/?since=0", None),
        ("post", f"/api/games/{game_id}/moves/", {"action": {"type": "roll"}, "expected_seq": 0}),
        ("post", f"/api/games/{game_id}/join/", {}),
        ("post", f"/api/games/{game_id}/start/", {}),
        ("post", f"/api/games/{game_id}/leave/", {}),
    )
    for method, url, body in calls:
        response = getattr(client, method)(url, body, format="json") if body is not None else client.get(url)
        assert response.status_code == 404, (url, response.status_code, response.content[:200])
        assert error_code(response) == "not_found", url


def test_an_action_holding_an_integer_beyond_64_bits_is_refused(alice, bob):
    game_id = create(alice).json()["id"]
    client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    client_for(alice).post(f"/api/games/{game_id}/start/")
    for action in ({"type": "build_settlement", "vertex": 2**64}, {"type": "roll", "extra": -(2**70)}):
        response = client_for(alice).post(f"/api/games/{game_id}/moves/", {"action": action}, format="json")
        assert response.status_code == 400, response.content[:200]
        error_code(response)
    assert not Move.objects.exists()
    assert Game.objects.get(pk=game_id).seq == 0
