"""Moderation seen through the sockets players hold: a report from the chat, hide and show live, a paused game
with no action, and a moderator watching a private game."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from catan_site.asgi import application
from moderation import services as moderation
from moderation.models import AuditEntry, Report
from tests.factories import UserFactory
from tests.games.consumers.test_game_socket import connect, receive_type, session_cookie
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def make_moderator():
    user = UserFactory(username="mod")
    user.groups.add(moderation.moderators_group())
    return type(user).objects.get(pk=user.pk)


async def test_a_player_reports_a_message_from_the_chat_and_hiding_reaches_open_pages(memory_channel_layer):
    game, (alice, bob) = await sync_to_async(started_game)(humans=2, bots=1)
    moderator = await sync_to_async(make_moderator)()
    a, b = await connect(game.pk, alice), await connect(game.pk, bob)
    try:
        await b.send_json_to({"type": "chat", "text": "you idiot"})
        line = await receive_type(a, "chat")
        await a.send_json_to({"type": "report", "message_id": line["id"], "reason": "insult"})
        assert (await receive_type(a, "reported"))["message_id"] == line["id"]
        report = await sync_to_async(Report.objects.get)(message_id=line["id"])
        assert report.message_text == "you idiot" and report.reporter_id == alice.pk
        await sync_to_async(moderation.report_handle)(
            moderator=moderator, report_id=report.pk, action="hide", reason="insult"
        )
        for socket in (a, b):
            assert await receive_type(socket, "chat_hidden") == {
                "type": "chat_hidden",
                "id": line["id"],
                "hidden": True,
                "text": "",
            }
        await sync_to_async(moderation.chat_set_hidden)(
            moderator=moderator, message_id=line["id"], hidden=False, reason="a mistake"
        )
        shown = await receive_type(a, "chat_hidden")
        assert shown["hidden"] is False and shown["text"] == "you idiot"
    finally:
        await a.disconnect()
        await b.disconnect()


async def test_a_paused_game_offers_no_action_and_says_why(memory_channel_layer):
    game, (alice, _bob) = await sync_to_async(started_game)(humans=2, bots=1)
    moderator = await sync_to_async(make_moderator)()
    a = await connect(game.pk, alice)
    try:
        await sync_to_async(moderation.game_set_status)(
            moderator=moderator, game_id=game.pk, status="paused", reason="checking a dispute"
        )
        await receive_type(a, "lobby")
        await a.send_json_to({"type": "sync"})
        state = await receive_type(a, "state")
        assert state["status"] == "paused" and state["legal"] == [] and state["pause_note"] == "checking a dispute"
    finally:
        await a.disconnect()


async def test_a_moderator_watches_a_private_game_without_a_hand(memory_channel_layer):
    game, _users = await sync_to_async(started_game)(humans=2, bots=1, visibility="private")
    moderator = await sync_to_async(make_moderator)()
    stranger = await sync_to_async(UserFactory)()
    watcher = await connect(game.pk, moderator)
    try:
        await watcher.send_json_to({"type": "sync"})
        state = await receive_type(watcher, "state")
        assert state["your_seat"] is None and state["legal"] == []
        assert all("resources" not in seat for seat in state["view"]["seats"])
    finally:
        await watcher.disconnect()
    with pytest.raises(AssertionError):
        await connect(game.pk, stranger)


async def test_a_moderator_watching_a_private_game_over_the_socket_is_audited_once_per_visit(memory_channel_layer):
    """Item 8: the socket a moderator opens on a private game they do not play in; again in the same session (a
    reconnect, the page's own socket after the page) is the same visit."""
    game, (alice, _bob) = await sync_to_async(started_game)(humans=2, bots=1, visibility="private")
    moderator = await sync_to_async(make_moderator)()
    cookie = await sync_to_async(session_cookie)(moderator)
    watched = AuditEntry.objects.filter(action="game_watched", game=game, moderator=moderator)
    for _ in range(2):
        communicator = WebsocketCommunicator(
            application,
            f"/ws/games/{game.pk}/",
            headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1"), (b"cookie", cookie)],
        )
        connected, _ = await communicator.connect()
        assert connected and (await communicator.receive_json_from(timeout=5))["type"] == "state"
        await communicator.disconnect()
        assert await sync_to_async(watched.count)() == 1
    player = await connect(game.pk, alice)
    await player.disconnect()
    assert await sync_to_async(AuditEntry.objects.filter(action="game_watched").count)() == 1
