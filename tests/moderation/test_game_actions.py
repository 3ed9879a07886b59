"""Moderators' actions on a game: each does what it says, is audited, and refuses what it cannot do."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

import rules
from games import clocks, outbox, selectors, services
from games.live.frames import everyone_group
from games.models import ChatMessage, Game, Move, SeatOffer
from infra.errors import GameError
from moderation import services as moderation
from moderation.models import AuditEntry, Report
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of
from tests.moderation.helpers import api, last_audit

pytestmark = pytest.mark.django_db


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
    assert (after - before).total_seconds() == 5 * 3600 and last_audit().details["hours"] == 5
    assert last_audit().details["deadline"] == after.isoformat()


@pytest.mark.django_db(transaction=True)
def test_a_replaced_seat_is_played_by_the_bot_at_its_next_decision(moderator):
    game, (alice, bob) = started_game(humans=2, bots=1)
    moderation.seat_replace_with_bot(moderator=moderator, game_id=game.pk, user_id=bob.pk, reason="left")
    seat = game.seats.get(index=1)
    assert seat.user is None and seat.bot == "medium" and last_audit().target_user == bob
    # Alice plays her set-up; the bot now places seat 1's pieces on its own.
    state = state_of(game)
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state, 0)[0])
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    assert Move.objects.filter(game=game, seat=1).count() >= 2
    bob.refresh_from_db()
    assert bob.games_abandoned == 1 and selectors.reliability(bob)["abandoned"] == 1


def test_a_seat_is_handed_to_another_user_who_accepts(moderator):
    game, (alice, bob) = started_game()
    carol = UserFactory()
    moderation.seat_replace_with_bot(moderator=moderator, game_id=game.pk, user_id=bob.pk, reason="left")
    offer = moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=carol, reason="swap")
    with pytest.raises(GameError):
        services.seat_offer_accept(offer_id=offer.pk, user=alice)
    services.seat_offer_accept(offer_id=offer.pk, user=carol)
    assert game.seats.get(index=1).user == carol and SeatOffer.objects.get(pk=offer.pk).accepted_at


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
    assert [e["action"] for e in client.get("/api/moderation/audit/").json()["results"]] == ["game_paused"]


def test_an_offer_never_ejects_the_person_in_the_seat_and_expires(moderator, client):
    """Item 6: only bot-held seats are offered, offers expire, suspended users are refused, acceptance is audited."""
    game, (alice, bob) = started_game()
    dave = UserFactory()
    with pytest.raises(GameError) as caught:
        moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=dave, reason="swap")
    assert caught.value.code == "seat_taken" and game.seats.get(index=1).user == bob
    client.force_login(moderator)
    client.post(f"/moderation/games/{game.pk}/", {"action": "replace_seat", "player": bob.pk, "reason": "left"})
    client.post(
        f"/moderation/games/{game.pk}/", {"action": "offer_seat", "seat": 1, "username": dave.username, "reason": "x"}
    )
    offer = SeatOffer.objects.get(user=dave)
    assert offer.expires_at is not None and offer.offered_by == moderator
    SeatOffer.objects.filter(pk=offer.pk).update(expires_at=game.created_at)
    with pytest.raises(GameError) as caught:
        services.seat_offer_accept(offer_id=offer.pk, user=dave)
    assert caught.value.code == "offer_expired"
    suspended = UserFactory()
    moderation.user_restrict(moderator=moderator, user=suspended, reason="spam", days=2)
    with pytest.raises(GameError) as caught:
        moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=suspended, reason="x")
    assert caught.value.code == "suspended"
    fresh = moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=dave, reason="again")
    services.seat_offer_accept(offer_id=fresh.pk, user=dave)
    assert game.seats.get(index=1).user == dave and last_audit().action == "seat_offer_accepted"
    assert "seat_offered" in client.get(f"/moderation/audit/?game={game.pk}").content.decode()


def test_replace_picks_the_player_by_name_and_undo_offers_the_seat_back(moderator, client):
    """Item 5: the page lists players by name; the replaced player is offered the seat back."""
    game, (alice, bob) = started_game()
    client.force_login(moderator)
    page = client.get(f"/moderation/games/{game.pk}/").content.decode()
    assert f'<option value="{bob.pk}">2. {bob.label}</option>' in page and "data-confirm" in page
    client.post(f"/moderation/games/{game.pk}/", {"action": "replace_seat", "player": bob.pk, "reason": "afk"})
    assert game.seats.get(index=1).user is None and game.seats.get(index=0).user == alice
    assert last_audit().details == {"seat": 2}
    client.post(f"/moderation/games/{game.pk}/", {"action": "offer_back", "seat": 1, "reason": "came back"})
    offer = SeatOffer.objects.get(user=bob)
    services.seat_offer_accept(offer_id=offer.pk, user=bob)
    assert game.seats.get(index=1).user == bob


def test_pause_freezes_the_clock_and_players_see_why(moderator, client):
    """Item 7: the time left when paused is the time left on resume, the game's and the seat's own clock."""
    game, (alice, bob) = started_game(clock="async", move_seconds=3600)
    before = Game.objects.get(pk=game.pk).deadline
    seat_before = game.seats.get(index=0).deadline
    client.force_login(moderator)
    client.post(f"/moderation/games/{game.pk}/", {"action": "pause", "reason": "dispute under review"})
    paused = Game.objects.get(pk=game.pk)
    assert 3500 < paused.paused_remaining <= 3600
    data = api(alice).get(f"/api/games/{game.pk}/").json()
    assert data["status"] == "paused" and data["pause_note"] == "dispute under review" and data["legal"] == []
    assert data["deadline"] is None and all(s["deadline"] is None for s in data["seats"])
    assert services.tick_all() == {}  # no clock runs during a pause
    # Five hours of pause later, the player still has the time they had when it began.
    Game.objects.filter(pk=game.pk).update(deadline=before - timedelta(hours=5), paused_remaining=1800)
    client.post(f"/moderation/games/{game.pk}/", {"action": "resume", "reason": "resolved"})
    resumed = Game.objects.get(pk=game.pk)
    assert resumed.status == "active" and 1790 < (resumed.deadline - clocks.now()).total_seconds() <= 1800
    shift = resumed.deadline - (before - timedelta(hours=5))
    assert seat_before is not None and game.seats.get(index=0).deadline == seat_before + shift


def test_hide_and_show_reach_every_open_page(moderator, monkeypatch, django_capture_on_commit_callbacks):
    """Item 11: the hide and un-hide events go, after commit, to the group every open page of the game is in."""
    game, (alice, bob) = started_game()
    message = services.chat_post(game_id=game.pk, user=bob, text="rude")
    sent = []
    monkeypatch.setattr(outbox, "_send_all", sent.extend)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.chat_set_hidden(moderator=moderator, message_id=message.pk, hidden=True, reason="insult")
    group, event = sent[-1]
    assert group == everyone_group(game.pk)
    assert event["payload"] == {"type": "chat_hidden", "id": message.pk, "hidden": True, "text": ""}
    with django_capture_on_commit_callbacks(execute=True):
        moderation.chat_set_hidden(moderator=moderator, message_id=message.pk, hidden=False, reason="mistake")
    assert sent[-1][1]["payload"]["hidden"] is False and sent[-1][1]["payload"]["text"] == "rude"
    assert [e.action for e in AuditEntry.objects.order_by("pk")] == ["chat_hidden", "chat_shown"]


def test_the_moderation_api_names_players_counts_seats_from_one_and_refuses_unknown_actions(moderator):
    game, (alice, bob) = started_game()
    client = api(moderator)
    url = f"/api/moderation/games/{game.pk}/actions/"
    assert client.post(url, {"action": "nuke", "reason": "x"}).status_code == 400
    assert client.post(url, {"action": "replace_seat", "user_id": bob.pk, "reason": "afk"}).status_code == 200
    assert game.seats.get(index=1).held_for == bob and game.seats.get(index=0).user == alice
    assert client.post(url, {"action": "offer_back", "seat": 2, "reason": "back"}).status_code == 200
    assert SeatOffer.objects.get(user=bob).seat.index == 1
    first = services.report_create(reporter=alice, game_id=game.pk, reason="a", user_id=bob.pk)
    second = services.report_create(reporter=alice, game_id=game.pk, reason="b", user_id=bob.pk)
    response = client.post(
        "/api/moderation/reports/bulk/",
        {"reports": [first.pk, second.pk], "action": "warn", "reason": "calm", "note": "second time this week"},
        format="json",
    )
    assert response.json() == {"handled": 2}
    sanction = client.get(f"/api/moderation/users/{bob.pk}/").json()["sanctions"][0]
    assert sanction["kind"] == "warning" and sanction["note"] == "second time this week"
    assert Report.objects.filter(status="actioned").count() == 2


def test_the_game_page_shows_each_offers_real_state(moderator, client):
    """Seat offers: an expired or replaced offer is not 'open until' a past time."""
    game, (alice, bob) = started_game()
    carol, dave = UserFactory(), UserFactory()
    moderation.seat_replace_with_bot(moderator=moderator, game_id=game.pk, user_id=bob.pk, reason="afk")
    old = moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=carol, reason="x")
    moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=dave, reason="y")
    expired = moderation.seat_offer_back(moderator=moderator, game_id=game.pk, seat_index=1, reason="z")
    SeatOffer.objects.filter(pk=expired.pk).update(expires_at=clocks.now() - timedelta(hours=1))
    client.force_login(moderator)
    page = client.get(f"/moderation/games/{game.pk}/").content.decode()
    offers = page.split('id="offers"')[1].split("</ul>")[0]
    assert "open until" not in offers
    assert f"{carol.label}: replaced by a newer offer" in offers and f"{bob.label}: expired" in offers
    assert old.pk  # the first offer is listed as replaced, not open


def test_hiding_a_line_of_another_game_or_of_no_game_is_a_404_and_changes_nothing(moderator):
    """Found by schemathesis: "hide" took the message of any game, whatever the game in the path, and answered
    500 when that game did not exist."""

    game, (alice, _bob) = started_game()
    other, _users = started_game()
    line = ChatMessage.objects.create(game=game, user=alice, text="hello")
    api = APIClient()
    api.force_authenticate(moderator)
    for game_id in (other.pk, 999999):
        response = api.post(
            f"/api/moderation/games/{game_id}/actions/",
            {"action": "hide", "reason": "spam", "message_id": line.pk},
            format="json",
        )
        assert response.status_code == 404 and response.json()["error"]["code"] == "no_message", game_id
    line.refresh_from_db()
    assert not line.hidden and not AuditEntry.objects.filter(action="chat_hidden").exists()
    done = api.post(
        f"/api/moderation/games/{game.pk}/actions/",
        {"action": "hide", "reason": "spam", "message_id": line.pk},
        format="json",
    )
    assert done.status_code == 200 and done.json() == {"ok": True, "status": "active"}
    line.refresh_from_db()
    assert line.hidden


def test_a_position_past_the_last_move_is_a_404_and_a_negative_one_a_400(moderator):
    """Found by schemathesis: a well-formed move number past the game's end answered 400."""

    game, _users = started_game()
    api = APIClient()
    api.force_authenticate(moderator)
    past = api.get(f"/api/moderation/games/{game.pk}/position/", {"seq": game.seq + 5})
    assert past.status_code == 404 and past.json()["error"]["code"] == "bad_seq"
    negative = api.get(f"/api/moderation/games/{game.pk}/position/", {"seq": "-1"})
    assert negative.status_code == 400
    assert api.get(f"/api/moderation/games/{game.pk}/position/", {"seq": game.seq}).status_code == 200
