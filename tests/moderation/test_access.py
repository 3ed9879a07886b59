"""Who gets in: only moderators reach moderation; hidden information reaches moderators and no one else, and
what they look at is audited."""

from __future__ import annotations

import pytest

import rules
from games import services
from games.models import Game
from moderation import services as moderation
from moderation.models import AuditEntry
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of
from tests.moderation.helpers import api, last_audit

pytestmark = pytest.mark.django_db


def test_the_moderators_group_grants_the_role(moderator):
    assert moderator.is_moderator and not UserFactory().is_moderator


def test_hidden_information_reaches_moderators_and_no_one_else(moderator):
    game, (alice, bob) = started_game()
    state = state_of(game)
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state, 0)[0])
    position = api(moderator).get(f"/api/moderation/games/{game.pk}/position/?seq=1&reveal=1&reason=review").json()
    assert position["seq"] == 1 and len(position["hands"]) == 4
    assert position["seed"] is None and position["deck"] is None  # a running game's future stays unknown
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
    body = {"action": "cancel", "reason": "x"}
    as_json = {"content_type": "application/json"} if method == "post" and target.startswith("/api/") else {}
    response = getattr(client, method)(target, body, **as_json)
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).status == "active"


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


def test_the_seed_shows_only_for_a_game_the_engine_finished(moderator, client):
    """Item 14: a status set to finished by hand reveals nothing, on the API or the fair-dice page."""
    game, (alice, _bob) = started_game()
    Game.objects.filter(pk=game.pk).update(status="finished")
    assert api(alice).get(f"/api/games/{game.pk}/").json()["seed"] is None
    assert str(game.seed) not in client.get(f"/games/{game.pk}/verify/").content.decode()
    state = dict(Game.objects.get(pk=game.pk).state, winner=0)
    Game.objects.filter(pk=game.pk).update(state=state)
    assert str(game.seed) in client.get(f"/games/{game.pk}/verify/").content.decode()


def test_a_moderator_watching_a_private_game_is_audited_once_per_visit(moderator, client):
    """Item 8: the game page of a private game, opened by a moderator who does not play in it."""
    game, (alice, _bob) = started_game(visibility="private")
    public, _ = started_game()
    client.force_login(moderator)
    for _ in range(3):
        assert client.get(f"/games/{game.pk}/").status_code == 200
    client.get(f"/games/{public.pk}/")
    (entry,) = AuditEntry.objects.filter(action="game_watched")
    assert entry.game_id == game.pk and entry.moderator == moderator
    client.force_login(alice)  # a player looking at her own game is not watched
    client.get(f"/games/{game.pk}/")
    assert AuditEntry.objects.filter(action="game_watched").count() == 1
    client.force_login(moderator)
    assert "Board watched" in client.get("/moderation/audit/?action=game_watched").content.decode()


def test_a_running_games_seed_and_deck_stay_hidden_from_moderators_too(moderator, client):
    """Item 14: the seed (and the deck order it gives) of a running game would tell its future dice."""
    game, (alice, _bob) = started_game()
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    position = api(moderator).get(f"/api/moderation/games/{game.pk}/position/?reveal=1&reason=x").json()
    assert position["seed"] is None and position["deck"] is None and position["hands"]
    client.force_login(moderator)
    page = client.get(f"/moderation/games/{game.pk}/").content.decode()
    assert str(game.seed) not in page
    state = dict(Game.objects.get(pk=game.pk).state, winner=0)
    Game.objects.filter(pk=game.pk).update(state=state, status="finished")
    assert api(moderator).get(f"/api/moderation/games/{game.pk}/position/").json()["seed"] == str(game.seed)
