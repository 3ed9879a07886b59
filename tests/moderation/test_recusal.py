"""Recusal and reveal (issue 26, finding 2): a moderator who plays in a game (or is offered a seat in it) cannot
see its hidden information nor use moderation powers on it, and no one moderates themselves; the refusal is a 403
with the code `recused` and a readable message, and changes nothing. Hidden information is shown to the others only
after an explicit reveal, recorded in the audit log with its reason. Through the real transport."""

from __future__ import annotations

import pytest
from django.test import Client

import rules
from games import services
from games.models import ChatMessage, Game, Seat, SeatOffer
from moderation import services as moderation
from moderation.models import AuditEntry, Report, Sanction
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of
from tests.moderation.helpers import api

pytestmark = pytest.mark.django_db

IN_GAME = (
    "You play in this game or are offered a seat in it: another moderator acts on it, "
    "and its hidden information stays hidden from you."
)


def _moderator(user=None):
    user = user or UserFactory()
    user.groups.add(moderation.moderators_group())
    return type(user).objects.get(pk=user.pk)  # fresh permission cache


def _web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _seated_moderator_game(**kwargs):
    """A running game in which alice, a moderator, plays against bob (and two bots)."""
    game, (alice, bob) = started_game(**kwargs)
    return game, _moderator(alice), bob


def _act(user, game, action: str, **more):
    body = {"action": action, "reason": "my own game", **more}
    return api(user).post(f"/api/moderation/games/{game.pk}/actions/", body, format="json")


def _snapshot(game) -> tuple:
    game = Game.objects.get(pk=game.pk)
    seats = list(Seat.objects.filter(game=game).order_by("index").values_list("user_id", "bot", "deadline"))
    hidden = list(ChatMessage.objects.filter(game=game).values_list("hidden", flat=True))
    return game.status, game.deadline, game.paused_remaining, seats, hidden, SeatOffer.objects.count()


def _refused(response, message: str = IN_GAME) -> None:
    assert response.status_code == 403, response.content
    assert response.json()["error"] == {"code": "recused", "message": message}


@pytest.mark.parametrize(
    "action",
    ["pause", "cancel", "extend", "replace_seat", "offer_seat", "hide"],
)
def test_a_moderator_who_plays_cannot_use_moderation_actions_on_their_game(action):
    game, alice, bob = _seated_moderator_game(clock="async", move_seconds=3600)
    message = services.chat_post(game_id=game.pk, user=bob, text="hello")
    more = {
        "extend": {"hours": 72},
        "replace_seat": {"user_id": bob.pk},
        "offer_seat": {"seat": 3, "user_id": UserFactory().pk},
        "hide": {"message_id": message.pk},
    }.get(action, {})
    before = _snapshot(game)
    _refused(_act(alice, game, action, **more))
    assert _snapshot(game) == before and not AuditEntry.objects.exists()


def test_a_moderator_who_plays_cannot_resume_a_game_another_moderator_paused():
    game, alice, _bob = _seated_moderator_game()
    moderation.game_set_status(moderator=_moderator(), game_id=game.pk, status="paused", reason="dispute")
    _refused(_act(alice, game, "resume"))
    assert Game.objects.get(pk=game.pk).status == "paused"


def test_a_moderator_offered_a_seat_is_recused_from_that_game():
    game, (alice, bob) = started_game()
    other, mod = _moderator(), _moderator()
    moderation.seat_replace_with_bot(moderator=other, game_id=game.pk, user_id=bob.pk, reason="left")
    moderation.seat_offer(moderator=other, game_id=game.pk, seat_index=1, user=mod, reason="a volunteer")
    _refused(_act(mod, game, "pause"))
    _refused(api(mod).get(f"/api/moderation/games/{game.pk}/position/?reveal=1&reason=curious"))
    assert Game.objects.get(pk=game.pk).status == "active"


def test_no_one_offers_a_seat_to_themselves():
    game, _users = started_game()
    mod = _moderator()
    response = _act(mod, game, "offer_seat", seat=3, user_id=mod.pk)
    _refused(response, "No one offers a seat to themselves.")
    assert not SeatOffer.objects.exists() and not AuditEntry.objects.exists()


def test_a_moderator_who_plays_cannot_read_the_position_revealed_or_not():
    game, alice, _bob = _seated_moderator_game()
    for query in ("", "?reveal=1&reason=checking", "?seq=0&reveal=1&reason=checking"):
        _refused(api(alice).get(f"/api/moderation/games/{game.pk}/position/{query}"))
    assert not AuditEntry.objects.exists()


def test_the_position_api_hides_hands_until_a_reveal_with_a_reason_which_is_audited():
    game, (alice, _bob) = started_game()
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    client = api(_moderator())
    url = f"/api/moderation/games/{game.pk}/position/"
    plain = client.get(url).json()
    assert plain["revealed"] is False and plain["hands"] is None and plain["development"] is None
    assert plain["view"]["board"] and plain["seq"] == 1
    assert all(set(m["action"]) == {"type"} and not m["events"] for m in plain["log"])
    assert not AuditEntry.objects.filter(action="position_viewed").exists()
    response = client.get(url + "?reveal=1")
    assert response.status_code == 400 and response.json()["error"]["code"] == "reason_required"
    shown = client.get(url + "?reveal=1&reason=collusion+report").json()
    assert shown["revealed"] is True and len(shown["hands"]) == 4
    entry = AuditEntry.objects.get(action="position_viewed")
    assert entry.reason == "collusion report" and entry.game_id == game.pk and entry.details == {"seq": 1}


def test_the_game_page_tells_a_moderator_who_plays_why_and_offers_no_action():
    game, alice, bob = _seated_moderator_game()
    services.chat_post(game_id=game.pk, user=bob, text="hello")
    client = _web(alice)
    page = client.get(f"/moderation/games/{game.pk}/").content.decode()
    assert 'id="recusal"' in page and IN_GAME in page
    for action in ("pause", "resume", "cancel", "extend", "replace_seat", "offer_seat", "hide", "reveal"):
        assert f'value="{action}"' not in page, action
    assert 'id="replay-seats"' not in page and 'class="mod-board"' not in page
    response = client.post(f"/moderation/games/{game.pk}/", {"action": "pause", "reason": "x"}, follow=True)
    assert IN_GAME in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == "active" and not AuditEntry.objects.exists()


def test_the_game_page_shows_hands_only_after_an_audited_reveal():
    game, (alice, _bob) = started_game()
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    client = _web(_moderator())
    url = f"/moderation/games/{game.pk}/"
    page = client.get(url).content.decode()
    assert 'value="reveal"' in page and 'id="replay-seats"' not in page and 'class="mod-board"' in page
    assert not AuditEntry.objects.filter(action="position_viewed").exists()
    client.post(url, {"action": "reveal", "reason": " ", "seq": "1"})
    assert 'id="replay-seats"' not in client.get(url).content.decode()
    assert not AuditEntry.objects.filter(action="position_viewed").exists()
    response = client.post(url, {"action": "reveal", "reason": "checking a dispute", "seq": "1"})
    assert response.status_code == 302 and response["Location"].endswith("?seq=1")
    for _ in range(2):
        page = client.get(url + "?seq=1").content.decode()
        assert 'id="replay-seats"' in page and 'value="reveal"' not in page
    entry = AuditEntry.objects.get(action="position_viewed")
    assert entry.reason == "checking a dispute" and entry.details == {"seq": 1}


def test_a_moderator_handles_no_report_from_a_game_they_play_nor_about_themselves():
    game, alice, bob = _seated_moderator_game()
    about_bob = services.report_create(reporter=alice, game_id=game.pk, reason="rude", user_id=bob.pk)
    about_alice = services.report_create(reporter=bob, game_id=game.pk, reason="rude", user_id=alice.pk)
    for report in (about_bob, about_alice):
        response = api(alice).post(
            f"/api/moderation/reports/{report.pk}/", {"action": "dismiss", "reason": "fine"}, format="json"
        )
        assert response.status_code == 403 and response.json()["error"]["code"] == "recused"
    assert Report.objects.filter(status=Report.Status.OPEN).count() == 2 and not AuditEntry.objects.exists()
    queue = _web(alice).get("/moderation/").content.decode()
    assert queue.count('class="muted report-recusal"') == 2
    assert "No one handles a report about themselves." in queue and IN_GAME in queue
    assert f'name="report" value="{about_bob.pk}">' not in queue


def test_a_moderator_does_not_sanction_someone_they_play_against():
    game, alice, bob = _seated_moderator_game()
    response = api(alice).post(f"/api/moderation/users/{bob.pk}/", {"action": "ban", "reason": "x"}, format="json")
    _refused(response, "You play in a running game with this person: another moderator decides.")
    bob.refresh_from_db()
    assert bob.is_active and not bob.banned and not Sanction.objects.exists()
    assert Seat.objects.get(game=game, index=1).user_id == bob.pk
