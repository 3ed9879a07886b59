"""Moderation: every action does what it says and is audited; only moderators get in; hidden information
reaches moderators and no one else; banned users lose their sockets and their API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import rules
from games import moderation, services
from games.errors import GameError
from games.models import AuditEntry, ChatMessage, Game, Move, Report, SeatOffer
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = UserFactory(username="mod")
    user.groups.add(moderation.moderators_group())
    return type(user).objects.get(pk=user.pk)  # fresh permission cache


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def last_audit() -> AuditEntry:
    return AuditEntry.objects.order_by("-pk").first()


def test_the_moderators_group_grants_the_role(moderator):
    assert moderator.is_moderator and not UserFactory().is_moderator


def test_game_actions_do_what_they_say_and_are_audited(moderator):
    game, (alice, _bob) = started_game()
    moderation.game_set_status(moderator=moderator, game_id=game.pk, status="paused", reason="dispute")
    assert Game.objects.get(pk=game.pk).status == "paused" and last_audit().action == "game_paused"
    with pytest.raises(GameError) as caught:
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    assert caught.value.code == "not_active"
    moderation.game_set_status(moderator=moderator, game_id=game.pk, status="active", reason="resolved")
    assert last_audit().action == "game_active" and last_audit().reason == "resolved"
    moderation.game_set_status(moderator=moderator, game_id=game.pk, status="cancelled", reason="abandoned")
    assert Game.objects.get(pk=game.pk).status == "cancelled" and last_audit().game_id == game.pk
    with pytest.raises(GameError) as caught:
        moderation.game_set_status(moderator=moderator, game_id=game.pk, status="paused", reason="x")
    assert caught.value.code == "bad_status"


def test_a_reason_is_required(moderator):
    game, _ = started_game()
    with pytest.raises(GameError) as caught:
        moderation.game_set_status(moderator=moderator, game_id=game.pk, status="paused", reason=" ")
    assert caught.value.code == "reason_required" and not AuditEntry.objects.exists()


def test_extend_deadline(moderator):
    game, _ = started_game(clock="async", move_seconds=3600)
    before = Game.objects.get(pk=game.pk).deadline
    moderation.game_extend_deadline(moderator=moderator, game_id=game.pk, hours=5, reason="holiday")
    after = Game.objects.get(pk=game.pk).deadline
    assert (after - before).total_seconds() == 5 * 3600 and last_audit().details == {"hours": 5}


@pytest.mark.django_db(transaction=True)
def test_a_replaced_seat_is_played_by_the_bot_at_its_next_decision(moderator):
    game, (alice, bob) = started_game(humans=2, bots=1)
    moderation.seat_replace_with_bot(moderator=moderator, game_id=game.pk, seat_index=1, reason="left")
    seat = game.seats.get(index=1)
    assert seat.user is None and seat.bot == "medium" and last_audit().target_user == bob
    # Alice plays her set-up; the bot now places seat 1's pieces on its own.
    state = state_of(game)
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state, 0)[0])
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    assert Move.objects.filter(game=game, seat=1).count() >= 2
    bob.refresh_from_db()
    assert bob.games_abandoned == 1 and moderation.reliability(bob)["abandoned"] == 1


def test_a_seat_is_handed_to_another_user_who_accepts(moderator):
    game, (alice, bob) = started_game()
    carol = UserFactory()
    offer = moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=carol, reason="swap")
    assert game.seats.get(index=1).user == bob
    with pytest.raises(GameError):
        moderation.seat_offer_accept(offer_id=offer.pk, user=alice)
    moderation.seat_offer_accept(offer_id=offer.pk, user=carol)
    assert game.seats.get(index=1).user == carol and SeatOffer.objects.get(pk=offer.pk).accepted_at


def test_hidden_information_reaches_moderators_and_no_one_else(moderator):
    game, (alice, bob) = started_game()
    state = state_of(game)
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state, 0)[0])
    position = api(moderator).get(f"/api/moderation/games/{game.pk}/position/?seq=1").json()
    assert position["seq"] == 1 and len(position["hands"]) == 4 and position["deck"] and position["seed"] == game.seed
    assert last_audit().action == "position_viewed"
    for user in (alice, bob, UserFactory(), None):
        response = api(user).get(f"/api/moderation/games/{game.pk}/position/")
        assert response.status_code in (401, 403)
        view = api(user).get(f"/api/games/{game.pk}/").json()["view"]
        text = str(view)
        assert "'deck'" not in text and "'seed'" not in text
        for seat in view["seats"]:
            assert "resources" not in seat or (user is not None and seat["seat"] == view["viewer"])


MODERATION_URLS = [
    ("get", "/moderation/"),
    ("get", "/moderation/games/"),
    ("get", "/moderation/games/{game}/"),
    ("get", "/moderation/users/{user}/"),
    ("get", "/moderation/audit/"),
    ("post", "/moderation/"),
    ("get", "/api/moderation/games/"),
    ("post", "/api/moderation/games/{game}/actions/"),
    ("get", "/api/moderation/games/{game}/position/"),
    ("get", "/api/moderation/users/{user}/"),
    ("post", "/api/moderation/users/{user}/"),
    ("get", "/api/moderation/reports/"),
    ("post", "/api/moderation/reports/1/"),
    ("get", "/api/moderation/audit/"),
]


@pytest.mark.parametrize(("method", "url"), MODERATION_URLS)
def test_a_non_moderator_gets_403_on_every_moderation_url(client, method, url):
    game, (alice, _) = started_game()
    target = url.format(game=game.pk, user=alice.pk)
    client.force_login(alice)
    response = getattr(client, method)(target, {"action": "cancel", "reason": "x"})
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).status == "active"


def test_moderator_api_actions(moderator):
    game, (alice, bob) = started_game()
    client = api(moderator)
    assert (
        client.post(f"/api/moderation/games/{game.pk}/actions/", {"action": "pause", "reason": "check"}).json()[
            "status"
        ]
        == "paused"
    )
    assert client.get("/api/moderation/games/?status=paused").json()[0]["id"] == game.pk
    assert client.get(f"/api/moderation/users/{alice.pk}/").json()["reliability"]["rate"] is None
    assert [e["action"] for e in client.get("/api/moderation/audit/").json()] == ["game_paused"]


def test_reports_and_the_queue(moderator):
    game, (alice, bob) = started_game()
    message = services.chat_post(game_id=game.pk, user=bob, text="rude words")
    report = moderation.report_create(reporter=alice, game_id=game.pk, reason="insult", message_id=message.pk)
    assert api(alice).post(f"/api/games/{game.pk}/reports/", {"reason": "again", "user_id": bob.pk}).status_code == 201
    queue = api(moderator).get("/api/moderation/reports/").json()
    assert [r["message"] for r in queue] == ["rude words", None]
    moderation.report_handle(moderator=moderator, report_id=report.pk, action="hide", reason="insult")
    assert ChatMessage.objects.get(pk=message.pk).hidden
    chat = api(alice).get(f"/api/games/{game.pk}/chat/").json()
    assert chat[0]["text"] == "Removed by a moderator." and chat[0]["hidden"]
    other = Report.objects.exclude(pk=report.pk).get()
    moderation.report_handle(moderator=moderator, report_id=other.pk, action="dismiss", reason="fine")
    assert Report.objects.get(pk=other.pk).status == "dismissed"
    with pytest.raises(GameError):
        moderation.report_handle(moderator=moderator, report_id=other.pk, action="hide", reason="twice")
    assert {e.action for e in AuditEntry.objects.all()} == {"report_hide", "report_dismiss"}


def test_warn_and_suspend_from_the_queue(moderator, mailoutbox):
    game, (alice, bob) = started_game()
    first = moderation.report_create(reporter=alice, game_id=game.pk, reason="spam", user_id=bob.pk)
    second = moderation.report_create(reporter=alice, game_id=game.pk, reason="spam again", user_id=bob.pk)
    moderation.report_handle(moderator=moderator, report_id=first.pk, action="warn", reason="please stop")
    assert mailoutbox[-1].to == [bob.email] and "please stop" in mailoutbox[-1].body
    moderation.report_handle(moderator=moderator, report_id=second.pk, action="suspend", reason="kept going", days=3)
    bob.refresh_from_db()
    assert not bob.is_active and bob.suspended_until is not None and not bob.banned


def test_players_mute_others_for_themselves():
    game, (alice, bob) = started_game()
    services.chat_post(game_id=game.pk, user=bob, text="hello")
    assert api(alice).post("/api/mutes/", {"user_id": bob.pk, "muted": True}).status_code == 200
    assert api(alice).get(f"/api/games/{game.pk}/chat/").json() == []
    assert [m["text"] for m in api(bob).get(f"/api/games/{game.pk}/chat/").json()] == ["hello"]


def test_the_audit_log_cannot_be_edited(moderator):
    game, _ = started_game()
    moderation.game_set_status(moderator=moderator, game_id=game.pk, status="paused", reason="x")
    entry = last_audit()
    entry.reason = "rewritten"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    assert AuditEntry.objects.get(pk=entry.pk).reason == "x"


def test_a_banned_user_is_refused_by_the_api_and_cannot_log_in(moderator, client):
    game, (alice, bob) = started_game(clock="async", move_seconds=3600)
    moderation.user_restrict(moderator=moderator, user=alice, reason="cheating")
    alice.refresh_from_db()
    assert alice.banned and not alice.is_active and last_audit().action == "user_banned"
    assert not client.login(username=alice.username, password="correct horse battery")
    token_client = APIClient()
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=alice)
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert token_client.post(
        f"/api/games/{game.pk}/moves/", {"action": {"type": "roll"}}, format="json"
    ).status_code in (
        401,
        403,
    )
    # Alice was to move: her seat falls to the timeout policy at the next clock tick.
    assert Game.objects.get(pk=game.pk).deadline is not None
    from games import clocks

    assert clocks.tick(game.pk) == "timeout:bot"
