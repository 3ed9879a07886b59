"""Reports: players report, moderators work the queue, reporters hear the outcome."""

from __future__ import annotations

import pytest

from games import services
from games.models import ChatMessage
from infra.errors import GameError
from moderation import services as moderation
from moderation.models import AuditEntry, Report
from tests.factories import UserFactory
from tests.games.helpers import started_game
from tests.moderation.helpers import api

pytestmark = pytest.mark.django_db


def test_reports_and_the_queue(moderator):
    game, (alice, bob) = started_game()
    message = services.chat_post(game_id=game.pk, user=bob, text="rude words")
    report = services.report_create(reporter=alice, game_id=game.pk, reason="insult", message_id=message.pk)
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


def test_warn_and_suspend_from_the_queue(moderator, mailoutbox, django_capture_on_commit_callbacks):
    game, (alice, bob) = started_game()
    first = services.report_create(reporter=alice, game_id=game.pk, reason="spam", user_id=bob.pk)
    second = services.report_create(reporter=alice, game_id=game.pk, reason="spam again", user_id=bob.pk)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.report_handle(moderator=moderator, report_id=first.pk, action="warn", reason="please stop")
    assert [bob.email] in [m.to for m in mailoutbox] and any("please stop" in m.body for m in mailoutbox)
    moderation.report_handle(moderator=moderator, report_id=second.pk, action="suspend", reason="kept going", days=3)
    bob.refresh_from_db()
    assert not bob.is_active and bob.suspended_until is not None and not bob.banned


def test_players_mute_others_for_themselves():
    game, (alice, bob) = started_game()
    services.chat_post(game_id=game.pk, user=bob, text="hello")
    assert api(alice).post("/api/mutes/", {"user_id": bob.pk, "muted": True}).status_code == 200
    assert api(alice).get(f"/api/games/{game.pk}/chat/").json() == []
    assert [m["text"] for m in api(bob).get(f"/api/games/{game.pk}/chat/").json()] == ["hello"]


def test_people_are_told_in_their_language_and_reporters_hear_the_outcome(
    moderator, client, mailoutbox, django_capture_on_commit_callbacks
):
    """Item 4."""
    game, (alice, bob) = started_game()
    type(bob).objects.filter(pk=bob.pk).update(language="fr")
    bob.refresh_from_db()
    report = services.report_create(reporter=alice, game_id=game.pk, reason="insults", user_id=bob.pk)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.report_handle(
            moderator=moderator, report_id=report.pk, action="suspend", reason="insults", days=3, note="2nd time"
        )
    to_bob = next(m for m in mailoutbox if m.to == [bob.email])
    assert "insults" in to_bob.body and "/moderation/record/" in to_bob.body and "suspendu" in to_bob.subject
    assert any(m.to == [alice.email] for m in mailoutbox)
    record_path = to_bob.body.split("/moderation/record/")[1].split()[0]
    page = client.get(f"/moderation/record/{record_path}").content.decode()
    assert "insults" in page and "2nd time" not in page
    client.force_login(alice)
    assert "suspended" in client.get("/").content.decode()
    client.force_login(moderator)
    assert "2nd time" in client.get(f"/moderation/users/{bob.pk}/").content.decode()


def test_a_report_saves_the_evidence_and_reports_on_one_player_are_grouped(moderator, client):
    """Item 10."""
    game, (alice, bob) = started_game()
    services.chat_post(game_id=game.pk, user=alice, text="good luck")
    message = services.chat_post(game_id=game.pk, user=bob, text="you idiot")
    services.chat_post(game_id=game.pk, user=alice, text="hey")
    response = api(alice).post(f"/api/games/{game.pk}/reports/", {"reason": "insult", "message_id": message.pk})
    assert response.status_code == 201
    api(alice).post(f"/api/games/{game.pk}/reports/", {"reason": "again", "user_id": bob.pk})
    ChatMessage.objects.filter(pk=message.pk).update(text="edited")
    report = Report.objects.get(message=message)
    assert report.message_text == "you idiot" and [line["text"] for line in report.context] == [
        "good luck",
        "you idiot",
        "hey",
    ]
    assert report.seq == game.seq
    client.force_login(moderator)
    page = client.get("/moderation/").content.decode()
    assert page.count('class="card report-group"') == 1 and "2 open reports" in page and alice.label in page


def test_the_queue_pages_filters_and_bulk_actions(moderator, client):
    """Item 12: 60 reports on 60 players fill pages of 20; a bulk dismiss closes the chosen ones."""
    game, (alice, _bob) = started_game()
    targets = [UserFactory() for _ in range(60)]
    reports = [
        Report.objects.create(reporter=alice, game=game, reported_user=t, reason=f"spam {i}")
        for i, t in enumerate(targets)
    ]
    client.force_login(moderator)
    first = client.get("/moderation/").content.decode()
    assert first.count('class="card report-group"') == 20 and "Page 1 of 3" in first and 'id="open-reports">60' in first
    assert "reason-templates" in first
    only = client.get(f"/moderation/?player={targets[5].username}").content.decode()
    assert only.count('class="card report-group"') == 1
    client.post("/moderation/", {"report": [r.pk for r in reports[:10]], "action": "dismiss", "reason": "fine"})
    assert Report.objects.filter(status="dismissed").count() == 10


def test_moderators_see_how_many_reports_came_since_they_last_looked(moderator, client):
    """Item 12: the new-report notice on every moderation page."""
    game, (alice, bob) = started_game()
    client.force_login(moderator)
    services.report_create(reporter=alice, game_id=game.pk, reason="spam", user_id=bob.pk)
    assert 'id="new-reports">1 new since you last looked' in client.get("/moderation/games/").content.decode()
    client.get("/moderation/")
    assert "new-reports" not in client.get("/moderation/audit/").content.decode()
    services.report_create(reporter=bob, game_id=game.pk, reason="rude", user_id=alice.pk)
    page = client.get("/moderation/audit/").content.decode()
    assert 'id="new-reports">1 new' in page and 'id="open-reports">2' in page


def test_a_player_can_report_only_people_who_played_or_wrote_in_that_game():
    game, (alice, bob) = started_game()
    stranger = UserFactory()
    response = api(alice).post(
        f"/api/games/{game.pk}/reports/", {"user_id": stranger.pk, "reason": "spam"}, format="json"
    )
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_in_game"
    assert not Report.objects.exists()
    response = api(alice).post(f"/api/games/{game.pk}/reports/", {"user_id": bob.pk, "reason": "rude"}, format="json")
    assert response.status_code == 201 and Report.objects.get().reported_user == bob


def test_a_bulk_action_audits_every_report_it_closes(moderator, client):
    """Item 12: three reports on one person, one suspension, three audit entries (the others name the report
    they were closed with)."""
    game, (alice, bob) = started_game()
    reports = [
        services.report_create(reporter=alice, game_id=game.pk, reason=f"spam {i}", user_id=bob.pk) for i in range(3)
    ]
    client.force_login(moderator)
    client.post("/moderation/", {"report": [r.pk for r in reports], "action": "suspend", "reason": "spam", "days": 2})
    assert Report.objects.filter(status="actioned").count() == 3
    entries = AuditEntry.objects.filter(action="report_suspend").order_by("pk")
    assert sorted(e.details["report"] for e in entries) == sorted(r.pk for r in reports)
    assert [e.details.get("duplicate_of") for e in entries] == [None, reports[0].pk, reports[0].pk]
    assert AuditEntry.objects.filter(action="user_suspended").count() == 1


def test_a_kept_sanction_tells_the_reporter_what_is_true(
    moderator, client, mailoutbox, django_capture_on_commit_callbacks
):
    """Item 3: a quick suspension of a banned person keeps the ban, and the reporter does not read 'suspended'."""
    game, (alice, bob) = started_game()
    moderation.user_restrict(moderator=moderator, user=bob, reason="cheating")
    report = services.report_create(reporter=alice, game_id=game.pk, reason="rude", user_id=bob.pk)
    client.force_login(moderator)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/moderation/", {"report": report.pk, "action": "suspend", "reason": "rude", "days": 7})
    assert Report.objects.get(pk=report.pk).outcome == "kept"
    # The audit log says what was done, not what was clicked: the report closed with the ban kept.
    assert set(AuditEntry.objects.filter(action__startswith="report_").values_list("action", flat=True)) == {
        "report_kept"
    }
    assert "Report: sanction kept" in client.get("/moderation/audit/").content.decode()
    told = next(m for m in mailoutbox if m.to == [alice.email])
    assert "suspended" not in told.body and "already" in told.body
