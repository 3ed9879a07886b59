"""The moderation pages and API read-outs: the audit log, chat, replays, in the moderator's language."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

import rules
from games import services
from moderation import services as moderation
from moderation.models import AuditEntry
from tests.games.helpers import started_game, state_of
from tests.moderation.helpers import api

pytestmark = pytest.mark.django_db


def test_the_audit_log_filters_pages_details_and_time_zone(moderator, client):
    """Item 13: one reveal per visit, details shown, filters, pages, the moderator's time zone."""
    game, (alice, _bob) = started_game()
    type(moderator).objects.filter(pk=moderator.pk).update(time_zone="Asia/Tokyo")
    client.force_login(moderator)
    client.post(f"/moderation/games/{game.pk}/", {"action": "reveal", "reason": "review"})
    for _ in range(3):
        assert 'id="replay-seats"' in client.get(f"/moderation/games/{game.pk}/").content.decode()
    assert AuditEntry.objects.filter(action="position_viewed").count() == 1
    moderation.user_restrict(moderator=moderator, user=alice, reason="spam", days=3)
    page = client.get("/moderation/audit/?action=user_suspended").content.decode()
    assert "days: 3" in page and "position_viewed</code>" not in page and "Asia/Tokyo" in page
    assert '<td>Suspended <code class="muted">user_suspended</code></td>' in page
    assert f'href="/moderation/users/{alice.pk}/"' in page


def test_moderators_see_chat_hidden_included_and_a_replay_with_names_and_dice(moderator, client):
    """Items 8 and 9."""
    game, (alice, bob) = started_game(visibility="private")
    message = services.chat_post(game_id=game.pk, user=bob, text="secret words")
    moderation.chat_set_hidden(moderator=moderator, message_id=message.pk, hidden=True, reason="x")
    state = state_of(game)
    services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state, 0)[0])
    client.force_login(moderator)
    page = client.get(f"/moderation/games/{game.pk}/?seq=1").content.decode()
    assert "secret words" in page and "hidden-message" in page
    assert "<svg" in page and alice.label in page and "[0, 0, 0, 0, 0]" not in page
    assert client.get(f"/games/{game.pk}/").status_code == 200


def test_every_moderation_page_speaks_french(moderator, client):
    """French for every moderation page (and the record a sanctioned person reads)."""
    game, (alice, bob) = started_game()
    services.report_create(reporter=alice, game_id=game.pk, reason="spam", user_id=bob.pk)
    moderation.user_warn(moderator=moderator, user=bob, reason="calme")
    type(moderator).objects.filter(pk=moderator.pk).update(language="fr")
    client.force_login(moderator)
    expected = {
        "/moderation/": "Pour les signalements sélectionnés",
        f"/moderation/games/{game.pk}/": "Remplacer un joueur par un robot",
        f"/moderation/users/{bob.pk}/": "Note privée",
        "/moderation/audit/": "Toute action",
        "/moderation/games/": "Rechercher",
    }
    for url, text in expected.items():
        assert text in client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode(), url
    record = client.get(urlsplit(moderation.record_link(bob)).path)
    assert "Avertissement" in record.content.decode()


def test_the_replay_names_moves_and_causes_in_the_moderators_language(moderator, client):
    """Item 9: readable, translated move kinds and causes, not codes."""
    game, (alice, bob) = started_game(humans=2, bots=1)
    for _ in range(2):
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    type(moderator).objects.filter(pk=moderator.pk).update(language="fr")
    client.force_login(moderator)
    log = client.get(f"/moderation/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    log = log.split('id="replay-log"')[1].split("</ol>")[0]
    assert "build_settlement" not in log and "build_road" not in log
    assert "Colonie construite" in log and "Route construite" in log


def test_the_audit_api_filters_by_person(moderator):
    game, (alice, bob) = started_game()
    moderation.user_warn(moderator=moderator, user=alice, reason="a")
    moderation.user_warn(moderator=moderator, user=bob, reason="b")
    results = api(moderator).get(f"/api/moderation/audit/?person={bob.username}").json()["results"]
    assert [e["target_user__username"] for e in results] == [bob.username]


def test_the_moderation_pages_name_bots_in_words(moderator, client):
    """Issue 27 item 10, the moderation pages: no robot emoji (an empty box without an emoji font)."""
    game, _users = started_game(visibility="public")
    client.force_login(moderator)
    for url in ("/moderation/games/", f"/moderation/games/{game.pk}/"):
        page = client.get(url).content.decode()
        assert "🤖" not in page and "Medium bot" in page, url
