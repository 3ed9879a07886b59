"""With Redis down (a private instance, stopped by PID), play goes on: a move is accepted (the rate limit fails
open, logged), a password log-in works (allauth's limits fail open), and the game's state loads over HTTP."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from rest_framework.test import APIClient

import rules
from games.models import Move
from tests.games.helpers import started_game, state_of
from tests.games.test_bot_stalls import PrivateRedis


@pytest.fixture
def redis_down(settings):
    private = PrivateRedis()
    private.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "catan_site.cache.FailOpenRedisCache",
            "LOCATION": private.url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    private.stop()
    yield
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.mark.django_db
def test_moves_and_log_ins_go_on_with_redis_down(redis_down):
    game, (alice, _bob) = started_game()
    api = APIClient()
    api.force_authenticate(alice)
    action = rules.legal_actions(state_of(game), 0)[0]
    response = api.post(f"/api/games/{game.pk}/moves/", {"action": action, "seq": 0}, format="json")
    assert response.status_code == 200, response.content
    assert Move.objects.filter(game=game).count() == 1
    assert api.get(f"/api/games/{game.pk}/").json()["seq"] == 1  # the page's state, over HTTP
    alice.set_password("a long passphrase")
    alice.save()
    EmailAddress.objects.update_or_create(user=alice, email=alice.email, defaults={"verified": True, "primary": True})
    response = Client().post("/accounts/login/", {"login": alice.username, "password": "a long passphrase"})
    assert response.status_code == 302
