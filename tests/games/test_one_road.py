"""The smaller defects of the same root (issue "One road for every move"): access written once, mutes on live
chat, suspensions that lift, a read-only admin, the action size limit, and the cause of every move."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

import rules
from catan_site.celery import app
from games import autoplay, services
from games.errors import GameError
from games.models import ChatMessage, Game, Move, Seat
from games.services import moderation
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of
from tests.games.servers import frames_until, open_socket


@pytest.mark.django_db(transaction=True)
def test_staff_may_watch_a_private_game_over_its_socket_as_a_spectator(server):
    game, _users = started_game(visibility="private")
    staff = UserFactory(is_staff=True)

    async def scenario() -> dict:
        ws = await open_socket(server, game.pk, staff)
        await ws.send('{"type": "sync"}')
        state = (await frames_until(ws, lambda f: f["type"] == "state"))[-1]
        await ws.close()
        return state

    state = asyncio.run(scenario())
    assert state["your_seat"] is None and state["view"]["viewer"] is None
    assert Client().get(f"/games/{game.pk}/").status_code == 404  # a stranger sees nothing


@pytest.mark.django_db
def test_the_join_service_itself_checks_a_private_game_s_invite():
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(creator=alice, seat_count=3, visibility="private")
    with pytest.raises(GameError) as refused:
        services.seat_join(game_id=game.pk, user=bob)
    assert refused.value.code == "invite_required" and refused.value.status == 403
    api = APIClient()
    api.force_authenticate(bob)
    assert api.post(f"/api/games/{game.pk}/join/", {"invite": "guess"}, format="json").status_code == 403
    assert not Seat.objects.filter(game=game, user=bob).exists()
    services.seat_join(game_id=game.pk, user=bob, invite=game.invite_token)
    assert Seat.objects.filter(game=game, user=bob).exists()


@pytest.mark.django_db(transaction=True)
def test_a_muted_player_s_live_chat_does_not_reach_the_muter(server):
    game, (alice, bob, carol) = started_game(humans=3, bots=0)
    services.mute_set(user=alice, muted_user_id=bob.pk, muted=True)

    async def scenario() -> list[dict]:
        ws = await open_socket(server, game.pk, alice)
        await asyncio.to_thread(services.chat_post, game_id=game.pk, user=bob, text="muted words")
        await asyncio.to_thread(services.chat_post, game_id=game.pk, user=carol, text="hello")
        seen = await frames_until(ws, lambda f: f["type"] == "chat" and f["text"] == "hello")
        await ws.close()
        return seen

    texts = [f["text"] for f in asyncio.run(scenario()) if f["type"] == "chat"]
    assert texts == ["hello"]


@pytest.mark.django_db
def test_expired_suspensions_lift_on_the_beat_s_schedule():
    assert any(
        entry["task"] == "games.lift_expired_suspensions" for entry in settings.CELERY_BEAT_SCHEDULE.values()
    )
    moderator, player = UserFactory(), UserFactory()
    moderator.groups.add(moderation.moderators_group())
    moderation.user_restrict(moderator=moderator, user=player, reason="abuse", days=1)
    player.refresh_from_db()
    assert not player.is_active
    type(player).objects.filter(pk=player.pk).update(suspended_until=timezone.now() - timedelta(minutes=1))
    from games.tasks import lift_expired_suspensions

    assert lift_expired_suspensions.apply().get() == 1
    player.refresh_from_db()
    assert player.is_active and player.suspended_until is None


@pytest.mark.django_db
def test_the_admin_changes_no_game_seat_or_chat_line():
    admin = UserFactory(is_staff=True, is_superuser=True)
    game, (alice, _bob) = started_game()
    message = ChatMessage.objects.create(game=game, user=alice, text="evidence")
    client = Client()
    client.force_login(admin)
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200  # it still shows
    response = client.post(f"/admin/games/game/{game.pk}/change/", {"status": "finished", "name": "x"})
    assert response.status_code == 403
    response = client.post(f"/admin/games/chatmessage/{message.pk}/change/", {"text": "rewritten"})
    assert response.status_code == 403
    assert client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"}).status_code == 403
    game.refresh_from_db()
    message.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and message.text == "evidence"
    assert str(game.seed) not in client.get(f"/admin/games/game/{game.pk}/change/").content.decode()


@pytest.mark.django_db
def test_an_oversized_action_is_refused_by_the_service_itself():
    game, (alice, _bob) = started_game()
    action = {"type": "build_settlement", "vertex": 1, "padding": "x" * services.MAX_ACTION_BYTES}
    with pytest.raises(GameError) as refused:
        services.move_submit(game_id=game.pk, user=alice, action=action)
    assert refused.value.code == "action_too_large"
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db(transaction=True)
def test_every_move_records_its_cause():
    game, (alice,) = started_game(humans=1, bots=2)
    for _ in range(2):
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    causes = dict(Move.objects.filter(game=game).values_list("seq", "cause"))
    assert causes[1] == causes[2] == "player"
    assert {causes[seq] for seq in causes if seq > 2} == {"bot"}
    moves = Move.objects.filter(game=game)
    assert all(m.user_id == alice.pk for m in moves if m.cause == "player")
    assert all(m.user_id is None and m.seat != 0 for m in moves if m.cause == "bot")


@pytest.mark.django_db
def test_reports_and_game_creation_are_limited_and_one_account_cannot_fill_the_lobby(settings):
    settings.RATE_LIMITS_HOURLY = {"reports": 2, "games": 5}
    settings.MAX_WAITING_GAMES_PER_USER = 2
    game, (alice, bob) = started_game()
    for _ in range(2):
        services.report_create(reporter=alice, game_id=game.pk, reason="rude", user_id=bob.pk)
    with pytest.raises(GameError) as refused:
        services.report_create(reporter=alice, game_id=game.pk, reason="rude", user_id=bob.pk)
    assert refused.value.code == "rate_limited" and refused.value.status == 429
    stranger = UserFactory()
    with pytest.raises(GameError) as refused:
        services.report_create(reporter=stranger, game_id=game.pk, reason="spam", user_id=bob.pk)
    assert refused.value.status in (403, 404)
    carol = UserFactory()
    first = services.game_create(creator=carol)
    services.game_create(creator=carol)
    with pytest.raises(GameError) as refused:
        services.game_create(creator=carol)
    assert refused.value.code == "too_many_waiting"
    # Leaving (cancelling) a waiting game frees a place, but not the hourly budget of creations.
    for _ in range(3):
        services.seat_leave(game_id=first.pk, user=carol)
        first = services.game_create(creator=carol)
    with pytest.raises(GameError) as refused:
        services.seat_leave(game_id=first.pk, user=carol)
        services.game_create(creator=carol)
    assert refused.value.code == "rate_limited"


@pytest.mark.django_db
def test_bots_play_on_a_queue_of_their_own_and_hard_bots_think_within_their_owner_s_budget(settings, monkeypatch):
    assert app.amqp.router.route({}, "games.bot_play")["queue"].name == settings.BOT_QUEUE == "bots"
    settings.BUDGETS = {"hard_bot": 1}
    levels = []
    original = autoplay.bot_action
    def spy(state, seat, level, **kwargs):
        levels.append(level)
        return original(state, seat, level, **kwargs)

    monkeypatch.setattr(autoplay, "bot_action", spy)
    game, (alice,) = started_game(humans=1, bots=2, bot_level="hard")
    for _ in range(2):
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    for _ in range(3):
        services.bot_play_once(game.pk)
    assert levels[0] == "hard" and set(levels[1:]) == {"medium"}
