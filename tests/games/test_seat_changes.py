"""A socket follows its user's seat as it changes, over a real server and a real WebSocket: after leaving and
rejoining, a moderator's replacement, an accepted seat offer and a timeout replacement, a socket forwards only
the frames of the seat its user holds now (or the spectators'), never those of a seat they held before."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

import rules
from games import services
from games.models import Game, Seat
from moderation import services as moderation
from tests.factories import UserFactory
from tests.games.helpers import started_game, state_of
from tests.games.servers import frames_until, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def _viewers(frames: list[dict]) -> set:
    return {f["view"]["viewer"] for f in frames if f["type"] in ("state", "update") and f.get("view")}


def _move(game: Game, user) -> None:
    state = state_of(game)
    seat = next(s for s in rules.to_move(state))
    services.move_submit(game_id=game.pk, user=user, action=rules.legal_actions(state, seat)[0])


def test_a_socket_opened_before_leaving_and_rejoining_follows_the_new_seat(server):
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=alice, seat_count=3, options={"seat_order": "fixed"})
    services.seat_join(game_id=game.pk, user=bob, index=1)

    async def scenario() -> list[dict]:
        ws = await open_socket(server, game.pk, bob)
        await asyncio.to_thread(services.seat_leave, game_id=game.pk, user=bob)
        await asyncio.to_thread(services.seat_join, game_id=game.pk, user=bob, index=2)
        await asyncio.to_thread(services.seat_join, game_id=game.pk, user=carol, index=1)
        await asyncio.to_thread(services.game_start, game_id=game.pk, user=alice)
        seen = await frames_until(ws, lambda f: f["type"] == "update" and f["seq"] == 0)
        await asyncio.to_thread(_move, game, alice)
        seen += await frames_until(ws, lambda f: f["type"] == "update" and f["seq"] == 1)
        await ws.close()
        return seen

    seen = asyncio.run(scenario())
    assert _viewers(seen) == {2}  # bob's own seat, never carol's seat 1
    assert all("resources" not in s for f in seen if f.get("view") for s in f["view"]["seats"] if s["seat"] == 1)


def test_a_socket_of_a_player_replaced_by_a_moderator_gets_only_the_spectators_frames(server):
    game, (alice, bob) = started_game(humans=2, bots=1)
    moderator = UserFactory()
    moderator.groups.add(moderation.moderators_group())

    async def scenario() -> list[dict]:
        ws = await open_socket(server, game.pk, bob)
        await asyncio.to_thread(
            moderation.seat_replace_with_bot, moderator=moderator, game_id=game.pk, user_id=bob.pk, reason="left"
        )
        seen = await frames_until(ws, lambda f: f["type"] == "state")
        await asyncio.to_thread(_move, game, alice)
        seen += await frames_until(ws, lambda f: f["type"] == "update" and f["seq"] == 1)
        await ws.close()
        return seen

    seen = asyncio.run(scenario())
    assert _viewers(seen) == {None}
    assert all(f["legal"] == [] for f in seen if f["type"] == "update")
    bob.refresh_from_db()
    assert bob.games_abandoned == 1


def test_a_socket_of_a_user_who_accepts_a_seat_offer_gets_that_seat_s_frames(server):
    game, (alice,) = started_game(humans=1, bots=2)
    dave, moderator = UserFactory(), UserFactory()
    moderator.groups.add(moderation.moderators_group())
    offer = moderation.seat_offer(moderator=moderator, game_id=game.pk, seat_index=1, user=dave, reason="a friend")

    async def scenario() -> list[dict]:
        ws = await open_socket(server, game.pk, dave)  # watching a public game
        await asyncio.to_thread(services.seat_offer_accept, offer_id=offer.pk, user=dave)
        seen = await frames_until(ws, lambda f: f["type"] == "state")
        seq = await asyncio.to_thread(lambda: Game.objects.get(pk=game.pk).seq)
        await asyncio.to_thread(_move, game, alice)
        seen += await frames_until(ws, lambda f: f["type"] == "update" and f["seq"] == seq + 1)
        await ws.close()
        return seen

    seen = asyncio.run(scenario())
    assert seen[-1]["view"]["viewer"] == 1 and seen[-1]["view"]["seats"][1].get("resources") is not None


def test_a_socket_of_a_player_whose_seat_a_timeout_gave_to_a_bot_stops_seeing_that_hand(server):
    users = [UserFactory(), UserFactory()]
    game = services.game_create(
        creator=users[0],
        seat_count=3,
        bot_seats=[2],
        options={"seat_order": "fixed"},
        clock="async",
        move_seconds=3600,
        timeout_policy="replace",
    )
    services.seat_join(game_id=game.pk, user=users[1])
    services.game_start(game_id=game.pk, user=users[0])
    alice, bob = users
    _move(game, alice)
    _move(game, alice)  # bob must place his first settlement now

    async def scenario() -> list[dict]:
        ws = await open_socket(server, game.pk, bob)
        past = timezone.now() - timedelta(minutes=1)

        def run_out_of_time() -> None:
            Game.objects.filter(pk=game.pk).update(deadline=past)
            Seat.objects.filter(game=game, index=1).update(deadline=past)  # bob's own time bank

        await asyncio.to_thread(run_out_of_time)
        assert await asyncio.to_thread(services.tick, game.pk) == "timeout:replace"
        seen = await frames_until(ws, lambda f: f["type"] == "state")
        seq = await asyncio.to_thread(lambda: Game.objects.get(pk=game.pk).seq)
        seen += await frames_until(ws, lambda f: f["type"] == "update" and f["seq"] >= seq)
        await ws.close()
        return seen

    seen = asyncio.run(scenario())
    after_replacement = seen[[f["type"] for f in seen].index("state") :]
    assert _viewers(after_replacement) == {None}
    bob.refresh_from_db()
    assert bob.games_abandoned == 1
