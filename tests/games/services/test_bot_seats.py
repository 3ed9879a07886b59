"""Bots of three levels, chosen per seat, playing from their seat's view inside the server."""

from __future__ import annotations

import pytest
from django.test import Client

import rules
from games import outbox, services, tasks
from games.models import Move, Seat
from infra.errors import GameError
from rules.ai import autoplay
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of


@pytest.mark.django_db
def test_the_creator_chooses_each_bot_seat_level_before_the_start():
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(creator=alice, seat_count=4, bot_seats=[1, 2], bot_level="easy")
    services.seat_set_bot(game_id=game.pk, user=alice, index=2, level="hard")
    services.seat_set_bot(game_id=game.pk, user=alice, index=3, level="medium")
    services.seat_set_bot(game_id=game.pk, user=alice, index=1, level="")
    assert [s.bot for s in game.seats.all()] == ["", "", "hard", "medium"]
    services.seat_join(game_id=game.pk, user=bob)
    assert game.seats.get(index=1).user == bob

    refusals = [
        (bob, 3, "easy", "not_creator"),
        (alice, 1, "easy", "seat_taken"),
        (alice, 9, "easy", "no_such_seat"),
        (alice, 3, "grandmaster", "bad_bot_level"),
        (alice, "3", "easy", "bad_seat"),
    ]
    for user, index, level, code in refusals:
        with pytest.raises(GameError) as caught:
            services.seat_set_bot(game_id=game.pk, user=user, index=index, level=level)
        assert caught.value.code == code
    assert [s.bot for s in game.seats.all()] == ["", "", "hard", "medium"]

    services.game_start(game_id=game.pk, user=alice)
    with pytest.raises(GameError) as caught:
        services.seat_set_bot(game_id=game.pk, user=alice, index=3, level="easy")
    assert caught.value.code == "already_started"


@pytest.mark.django_db
def test_the_waiting_room_offers_the_levels_and_the_api_sets_them():
    alice = UserFactory()
    game = services.game_create(creator=alice, seat_count=3, bot_seats=[1])
    client = Client()
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    for label in ("Easy bot", "Medium bot", "Hard bot", "Open for a person"):
        assert label in page
    response = client.post(f"/games/{game.pk}/seats/2/bot/", {"level": "hard"})
    assert response.status_code == 302 and game.seats.get(index=2).bot == "hard"
    response = client.post(f"/api/games/{game.pk}/seats/1/bot/", {"level": "easy"}, content_type="application/json")
    assert response.status_code == 200 and game.seats.get(index=1).bot == "easy"
    bad = client.post(f"/api/games/{game.pk}/seats/1/bot/", {"level": "god"}, content_type="application/json")
    assert bad.status_code == 400 and game.seats.get(index=1).bot == "easy"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_each_level_plays_its_seat_through_the_server(level, settings):
    settings.BOT_HARD_SECONDS = 0.05
    game, (alice,) = started_game(humans=1, bots=2, bot_level=level)
    # Seat 0 (alice) placed nothing yet; the bots wait for her. Play her set-up and watch the bots answer.
    for _ in range(40):
        state = state_of(game)
        if 0 not in rules.to_move(state):
            break
        action = rules.legal_actions(state, 0)[0]
        services.move_submit(game_id=game.pk, user=alice, action=action, expected_seq=game.seq)
    bot_moves = Move.objects.filter(game=game, seat__in=[1, 2])
    assert bot_moves.count() >= 4  # both bots placed their settlements and roads
    assert all(m.user_id is None for m in bot_moves)
    state = state_of(game)
    assert all(state.vertex_owner.count(seat) >= 1 for seat in (1, 2))


@pytest.mark.django_db(transaction=True)
def test_a_bot_decides_from_its_view_alone(monkeypatch):
    import rules.ai as ai

    seen = []
    original = ai.choose_for

    def spy(state, seat, bot):
        seen.append((seat, rules.view(state, seat)))
        return original(state, seat, bot)

    monkeypatch.setattr(ai, "choose_for", spy)
    game, (alice,) = started_game(humans=1, bots=2, bot_level="medium")
    for _ in range(2):  # alice's set-up settlement and road; then the bots place theirs
        state = state_of(game)
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state, 0)[0])
    assert {seat for seat, _ in seen} == {1, 2}
    for seat, view in seen:
        assert view["viewer"] == seat
        assert all(("resources" in facts) == (facts["seat"] == seat) for facts in view["seats"])


@pytest.mark.django_db
def test_a_stale_bot_move_is_dropped_not_applied_twice():
    game, (alice, _) = started_game(humans=2, bots=1, bot_level="medium")
    assert services.bot_play_once(game.pk) is False  # seat 0 (a person) must act first
    assert Move.objects.filter(game=game).count() == 0
    assert Seat.objects.filter(game=game, bot="medium").count() == 1


@pytest.mark.django_db
def test_a_bot_whose_move_is_refused_plays_a_legal_one_instead_of_stalling(monkeypatch):
    game, (alice, bob) = started_game(humans=2, bots=1, bot_level="medium")
    for user in (alice, bob):  # the two people place their first settlement and road
        for _ in range(2):
            state = state_of(game)
            seat = rules.to_move(state)[0]
            services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[0])
    monkeypatch.setattr(autoplay, "move_for", lambda *args, **kwargs: {"type": "build_city", "vertex": -1})
    before = Move.objects.filter(game=game).count()
    assert services.bot_play_once(game.pk) is True
    assert Move.objects.filter(game=game, seat=2, cause="bot").count() == 1
    assert Move.objects.filter(game=game).count() == before + 1


def test_every_thread_sees_the_site_s_celery_app():
    import threading

    from celery import current_app

    seen = []
    thread = threading.Thread(target=lambda: seen.append((current_app.main, tasks.bot_play.app.main)))
    thread.start()
    thread.join()
    assert seen == [("catan_site", "catan_site")]


@pytest.mark.django_db(transaction=True)
def test_bots_keep_playing_when_the_request_s_broadcast_is_cancelled(monkeypatch, memory_channel_layer):
    """A client leaving mid-request makes asgiref cancel what the request awaits: the broadcast of a stored move.
    It is sent again, and the bots playing in-process after it go on until a person must act. (A layer that
    cannot publish from the request's thread, here the in-memory one: the Redis layer publishes there, with no
    event loop to be cancelled.)"""
    import asyncio

    sent, cancelled = [], []

    async def flaky_flush(messages):
        if not cancelled and any(event.get("seq") == 3 for _, event in messages):  # a bot's move
            cancelled.append(True)
            raise asyncio.CancelledError
        sent.extend(messages)

    monkeypatch.setattr(outbox, "flush", flaky_flush)
    game, (alice,) = started_game(humans=1, bots=3, bot_level="easy")
    for _ in range(2):  # alice's set-up settlement and road; then the bots place theirs
        state = state_of(game)
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state, 0)[0])
    assert cancelled
    assert rules.to_move(state_of(game)) == [0]
    assert Move.objects.filter(game=game).exclude(seat=0).count() == 12
    assert {event["seq"] for _, event in sent if event["type"] == "game.frames"} == set(range(15))
