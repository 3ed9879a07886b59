"""Issue 28, ratings: a moderator can void a finished game's rating effect, from the game's moderation page and the
API; it is audited, refused to a moderator who played in the game, and refused for a game that changed no
rating."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Game, Seat
from moderation import services as moderation
from moderation.models import AuditEntry
from ratings.models import Rating, RatingChange
from tests.factories import UserFactory
from tests.ratings.test_ratings import play_to_end

pytestmark = pytest.mark.django_db(transaction=True)


def _moderator(user=None):
    user = user or UserFactory()
    user.groups.add(moderation.moderators_group())
    return type(user).objects.get(pk=user.pk)


def _finished_game(alice, bob) -> Game:
    game = services.game_create(
        creator=alice, seat_count=3, bot_seats=[2], options={"seat_order": "fixed"}, bot_level=Seat.Bot.EASY
    )
    services.seat_join(game_id=game.pk, user=bob, invite=game.invite_token)
    services.game_start(game_id=game.pk, user=alice)
    game = play_to_end(game, [alice, bob], humans=2)
    assert game.status == Game.Status.FINISHED
    return game


def test_a_moderator_voids_a_finished_games_rating_from_its_page_and_it_is_audited():
    alice, bob = UserFactory(), UserFactory()
    game = _finished_game(alice, bob)
    assert Rating.objects.get(user=alice).games == 1
    moderator = _moderator()
    client = Client()
    client.force_login(moderator)
    page = client.get(f"/moderation/games/{game.pk}/").content.decode()
    assert 'id="void-rating"' in page
    client.post(f"/moderation/games/{game.pk}/", {"action": "void_rating", "reason": "collusion"})
    assert Rating.objects.get(user=alice).games == 0 and Rating.objects.get(user=bob).games == 0
    assert all(row.voided_by_id == moderator.pk for row in RatingChange.objects.filter(game=game))
    entry = AuditEntry.objects.get(action="rating_voided")
    assert (entry.game_id, entry.moderator_id, entry.reason, entry.details) == (
        game.pk,
        moderator.pk,
        "collusion",
        {"ratings": 3},
    )
    # Twice: nothing left to void, a clear refusal, no second entry.
    api = APIClient()
    api.force_authenticate(moderator)
    again = api.post(
        f"/api/moderation/games/{game.pk}/actions/", {"action": "void_rating", "reason": "again"}, format="json"
    )
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_rated"
    assert AuditEntry.objects.filter(action="rating_voided").count() == 1


def test_a_moderator_who_played_cannot_void_the_games_rating():
    alice, bob = UserFactory(), UserFactory()
    alice = _moderator(alice)
    game = _finished_game(alice, bob)
    api = APIClient()
    api.force_authenticate(alice)
    response = api.post(
        f"/api/moderation/games/{game.pk}/actions/", {"action": "void_rating", "reason": "mine"}, format="json"
    )
    assert response.status_code == 403 and response.json()["error"]["code"] == "recused"
    assert Rating.objects.get(user=alice).games == 1 and not AuditEntry.objects.filter(action="rating_voided")
