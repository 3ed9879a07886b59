"""Issue "Power", finding 9: suspensions come in hours as well as days (API and pages), end within a minute of
their time, and the mail and pages give their end with its time zone."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format
from rest_framework.test import APIClient

from catan_site.celery import app as celery_app
from games import clocks
from infra.errors import GameError
from moderation import services as moderation
from moderation.models import AuditEntry, Sanction
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _hours_left(user) -> float:
    user.refresh_from_db()
    return (user.suspended_until - clocks.now()).total_seconds() / 3600


def test_the_api_suspends_for_hours(moderator):
    target = UserFactory()
    client = APIClient()
    client.force_authenticate(moderator)
    response = client.post(
        f"/api/moderation/users/{target.pk}/", {"action": "suspend", "reason": "cool off", "hours": 3}, format="json"
    )
    assert response.status_code == 200 and response.json()["result"] == "suspended"
    assert 2.99 < _hours_left(target) <= 3
    entry = AuditEntry.objects.get(action="user_suspended")
    assert entry.details["hours"] == 3 and "until" in entry.details


def test_days_and_hours_together_are_refused_and_change_nothing(moderator):
    target = UserFactory()
    client = APIClient()
    client.force_authenticate(moderator)
    body = {"action": "suspend", "reason": "cool off", "hours": 3, "days": 1}
    response = client.post(f"/api/moderation/users/{target.pk}/", body, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_length"
    target.refresh_from_db()
    assert target.is_active and target.suspended_until is None and not AuditEntry.objects.exists()


@pytest.mark.parametrize("hours", [0, -1, 365 * 24 + 1])
def test_hours_out_of_range_are_refused(moderator, hours):
    target = UserFactory()
    client = APIClient()
    client.force_authenticate(moderator)
    body = {"action": "suspend", "reason": "cool off", "hours": hours}
    response = client.post(f"/api/moderation/users/{target.pk}/", body, format="json")
    assert response.status_code == 400 and "hours" in response.json()["error"]["fields"]  # the schema's range
    target.refresh_from_db()
    assert target.suspended_until is None
    with pytest.raises(GameError) as refused:  # and the service's own, for every caller
        moderation.user_restrict(moderator=moderator, user=target, reason="cool off", hours=hours)
    assert refused.value.code == "bad_hours"


def test_the_person_page_suspends_for_hours(moderator):
    target = UserFactory()
    client = Client()
    client.force_login(moderator)
    body = {"action": "suspend", "reason": "cool off", "length": 2, "unit": "hours"}
    client.post(f"/moderation/users/{target.pk}/", body)
    assert 1.99 < _hours_left(target) <= 2
    page = client.get(f"/moderation/users/{target.pk}/").content.decode()
    assert 'name="unit"' in page and "(UTC)" in page  # the end, with its zone


def test_the_report_queue_suspends_for_hours(moderator):
    from tests.games.helpers import started_game  # here: only this test needs a game

    game, (alice, bob) = started_game()
    from games import services

    report = services.report_create(reporter=alice, game_id=game.pk, reason="rude", user_id=bob.pk)
    client = Client()
    client.force_login(moderator)
    body = {"report": report.pk, "action": "suspend", "reason": "rude", "length": 5, "unit": "hours"}
    client.post("/moderation/", body)
    assert 4.99 < _hours_left(bob) <= 5


def test_the_suspension_mail_gives_the_end_in_the_readers_time_zone_with_its_name(
    moderator, mailoutbox, django_capture_on_commit_callbacks
):
    target = UserFactory(time_zone="Asia/Tokyo")
    with django_capture_on_commit_callbacks(execute=True):
        moderation.user_restrict(moderator=moderator, user=target, reason="spam", hours=10)
    (mail,) = [m for m in mailoutbox if m.to == [target.email]]
    ends = Sanction.objects.get(user=target).ends_at
    tokyo = ends.astimezone(ZoneInfo("Asia/Tokyo"))
    assert "(Asia/Tokyo)" in mail.body
    # As the reader's language writes a date and time ("Nov. 28, 2026, 12:05 p.m.", or "noon" on the hour).
    with translation.override("en"):
        assert f"{date_format(tokyo, 'DATETIME_FORMAT')} (Asia/Tokyo)" in mail.body, mail.body


def test_a_suspension_is_lifted_within_a_minute_of_its_end():
    """Beat asks at most every 30 seconds, for a task the worker knows."""
    entry = settings.CELERY_BEAT_SCHEDULE["suspensions"]
    assert entry["task"] == "moderation.lift_expired_suspensions"
    celery_app.loader.import_default_modules()  # what a worker does at start: finds every app's tasks module
    assert entry["task"] in celery_app.tasks
    assert float(entry["schedule"]) <= 30


def test_an_hour_suspension_ends_when_beat_runs_after_its_end(
    moderator, mailoutbox, django_capture_on_commit_callbacks
):
    target = UserFactory()
    moderation.user_restrict(moderator=moderator, user=target, reason="cool off", hours=1)
    type(target).objects.filter(pk=target.pk).update(suspended_until=clocks.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert moderation.lift_expired_suspensions() == 1
    target.refresh_from_db()
    assert target.is_active and target.suspended_until is None
