"""The game socket: per-seat views, spectators, stale seq, bad frames, and no acting without a seat."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

import rules
from catan_site.asgi import application
from games import services
from games.models import Game, Move
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def connect(game_id: int, user=None) -> WebsocketCommunicator:
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "state"
    return communicator


async def receive_type(communicator: WebsocketCommunicator, kind: str) -> dict:
    for _ in range(50):
        frame = await communicator.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


@pytest.fixture(params=["memory", "redis"])
def layer(request):
    return request.getfixturevalue(f"{request.param}_channel_layer")


@pytest.fixture
def game_and_users(layer):
    return started_game(humans=2, bots=1)


async def test_two_seats_get_their_own_views_and_spectators_the_public_one(game_and_users):
    game, (alice, bob) = game_and_users
    a, b, spectator = await connect(game.pk, alice), await connect(game.pk, bob), await connect(game.pk)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        action = rules.legal_actions(state, 0)[0]
        await a.send_json_to({"type": "move", "action": action, "seq": 0, "key": "m1"})
        ack = await receive_type(a, "ack")
        assert ack["seq"] == 1
        update_a = await receive_type(a, "update")
        update_b = await receive_type(b, "update")
        update_s = await receive_type(spectator, "update")
        assert update_a["seq"] == update_b["seq"] == update_s["seq"] == 1
        assert update_a["view"]["viewer"] == 0 and update_b["view"]["viewer"] == 1
        assert update_s["view"]["viewer"] is None
        assert "resources" in update_a["view"]["seats"][0] and "resources" not in update_a["view"]["seats"][1]
        assert "resources" in update_b["view"]["seats"][1] and "resources" not in update_b["view"]["seats"][0]
        assert all("resources" not in s for s in update_s["view"]["seats"])
        assert update_a["legal"] and update_s["legal"] == []
    finally:
        for communicator in (a, b, spectator):
            await communicator.disconnect()


async def test_a_stale_seq_gets_an_error_and_a_resync(game_and_users):
    game, (alice, _) = game_and_users
    a = await connect(game.pk, alice)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        await a.send_json_to({"type": "move", "action": rules.legal_actions(state, 0)[0], "seq": 3})
        error = await receive_type(a, "error")
        assert error["code"] == "stale" and error["seq"] == 0
        resync = await receive_type(a, "state")
        assert resync["seq"] == 0 and resync["view"]["phase"] == "setup_settlement"
    finally:
        await a.disconnect()


async def test_the_heartbeat_tells_a_client_that_missed_a_move(game_and_users):
    game, (alice, bob) = game_and_users
    a = await connect(game.pk, alice)
    try:
        await a.send_json_to({"type": "ping"})
        assert await receive_type(a, "pong") == {"type": "pong", "seq": 0}
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        action = rules.legal_actions(state, 0)[0]
        await sync_to_async(services.move_submit)(game_id=game.pk, user=alice, action=action)
        await a.send_json_to({"type": "ping"})
        assert (await receive_type(a, "pong"))["seq"] == 1
    finally:
        await a.disconnect()


async def test_malformed_or_illegal_frames_get_an_error_and_change_nothing(game_and_users):
    game, (alice, _) = game_and_users
    a = await connect(game.pk, alice)
    try:
        await a.send_to(text_data="{not json")
        assert (await receive_type(a, "error"))["code"] == "malformed"
        await a.send_to(text_data=json.dumps([1, 2]))
        assert (await receive_type(a, "error"))["code"] == "malformed"
        await a.send_to(text_data="x" * 20000)
        assert (await receive_type(a, "error"))["code"] == "frame_too_large"
        await a.send_json_to({"type": "teleport"})
        assert (await receive_type(a, "error"))["code"] == "unknown_type"
        await a.send_json_to({"type": "move", "action": {"type": "roll"}, "seq": 0})
        assert (await receive_type(a, "error"))["code"] == "illegal_action"
        await a.send_json_to({"type": "move", "action": {"type": "build_city", "vertex": "x"}, "seq": 0})
        assert (await receive_type(a, "error"))["code"] in ("illegal_action", "not_your_turn", "bad_action")
    finally:
        await a.disconnect()
    assert await sync_to_async(Move.objects.filter(game=game).count)() == 0
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)() == 0


async def test_an_unauthenticated_user_cannot_act(game_and_users):
    game, _ = game_and_users
    spectator = await connect(game.pk)
    try:
        state = await sync_to_async(lambda: rules.load(Game.objects.get(pk=game.pk).state))()
        await spectator.send_json_to({"type": "move", "action": rules.legal_actions(state, 0)[0], "seq": 0})
        assert (await receive_type(spectator, "error"))["code"] == "not_a_player"
    finally:
        await spectator.disconnect()
    assert await sync_to_async(Move.objects.filter(game=game).count)() == 0


async def test_a_private_game_refuses_strangers(memory_channel_layer):
    game, _ = await sync_to_async(started_game)(visibility="private")
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await communicator.connect()
    assert not connected
    invited = await connect_with_invite(game)
    await invited.disconnect()


async def connect_with_invite(game) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/?invite={game.invite_token}", headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from(timeout=5))["type"] == "state"
    return communicator


async def test_a_banned_users_socket_is_closed(game_and_users):
    from moderation import services as moderation
    from tests.factories import UserFactory

    game, (alice, bob) = game_and_users
    moderator = await sync_to_async(UserFactory)()
    await sync_to_async(lambda: moderator.groups.add(moderation.moderators_group()))()
    moderator = await sync_to_async(lambda: type(moderator).objects.get(pk=moderator.pk))()
    b = await connect(game.pk, bob)
    try:
        await sync_to_async(moderation.user_restrict)(moderator=moderator, user=bob, reason="abuse")
        error = await receive_type(b, "error")
        assert error["code"] == "account_restricted"
        closed = await b.receive_output(timeout=5)
        assert closed["type"] == "websocket.close" and closed["code"] == 4403
    finally:
        await b.disconnect()


async def test_a_fault_inside_the_server_gets_an_error_frame_not_a_dropped_socket(game_and_users, monkeypatch):
    """A failure nobody foresaw (here the database refusing a move) answers the frame with an error and keeps
    the socket: the player's next message is served."""
    game, (alice, _bob) = game_and_users

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(services, "move_submit", broken)
    a = await connect(game.pk, alice)
    try:
        await a.send_json_to({"type": "move", "action": {"type": "roll"}, "seq": 0, "key": "k1"})
        error = await receive_type(a, "error")
        assert error["code"] == "server_error" and "the database" not in error["message"]
        await a.send_json_to({"type": "ping"})
        assert (await receive_type(a, "pong"))["seq"] == game.seq
    finally:
        await a.disconnect()


async def test_a_socket_opens_off_the_thread_that_thread_sensitive_calls_share(game_and_users, monkeypatch):
    """Issue "Live play": every socket's opening queries (seat, mutes, state, presence) ran one after another on
    the one thread that `thread_sensitive` calls share. After a restart, when a server's sockets all reconnect,
    each socket then waited behind every other one's queries, and meanwhile read no frame of the moves being
    played (the load benchmark's p99 of 0.3-0.7 s). They now run on the worker threads, two trips per socket."""
    import threading

    from games import consumers, selectors
    from games.live import presence

    game, users = game_and_users
    shared = await sync_to_async(threading.current_thread, thread_sensitive=True)()
    seen: dict[str, threading.Thread] = {}

    def spy(name, original):
        def call(*args, **kwargs):
            seen[name] = threading.current_thread()
            return original(*args, **kwargs)

        return call

    monkeypatch.setattr(consumers.services.chat, "muted_ids", spy("mutes", consumers.services.chat.muted_ids))
    monkeypatch.setattr(selectors, "game_view", spy("state", selectors.game_view))
    monkeypatch.setattr(presence, "joined", spy("presence", presence.joined))
    communicator = await connect(game.pk, users[0])
    await communicator.disconnect()
    assert set(seen) == {"mutes", "state", "presence"}
    assert all(thread is not shared for thread in seen.values()), {k: t.name for k, t in seen.items()}
