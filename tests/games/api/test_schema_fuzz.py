"""Fuzz the REST API from its own OpenAPI schema (schemathesis): never a 5xx, and a 4xx changes nothing."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

from games.models import ChatMessage, Game, Move, Seat
from moderation.models import Report
from tests.factories import UserFactory
from tests.games.helpers import started_game

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


def snapshot() -> tuple:
    return (
        Game.objects.count(),
        sorted(Game.objects.values_list("pk", "seq", "status")),
        Move.objects.count(),
        Seat.objects.exclude(user=None).count(),
        ChatMessage.objects.count(),
        Report.objects.count(),
    )


@pytest.fixture
def keep_test_connection():
    """Like Django's test client: requests must not close the test transaction's connection."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token_headers(db, keep_test_connection):
    from rest_framework.authtoken.models import Token

    game, (alice, _) = started_game()
    UserFactory()
    token = Token.objects.create(user=alice)
    return {"Authorization": f"Token {token.key}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_never_fails_and_refusals_change_nothing(case, token_headers):
    before = snapshot()
    response = case.call(headers=token_headers)
    assert response.status_code < 500, (case.method, case.path, response.status_code, response.text[:300])
    if 400 <= response.status_code < 500:
        assert snapshot() == before, (case.method, case.path, response.status_code)
