"""A live turn clock's disconnect grace: once the player who owes a decision has closed their last socket on the
game, the table waits only LIVE_DISCONNECT_GRACE_SECONDS for them, then the timeout policy plays their turn. A
second tab still open keeps the full clock."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from django.db.models import F
from django.utils import timezone

from games import services
from games.models import Game, Move
from tests.games.consumers.test_game_socket import connect
from tests.games.services.test_turn_clock import _live_game

pytestmark = pytest.mark.django_db(transaction=True)


async def timeout_moves(game, seat: int, expected: int, within: float = 15) -> int:
    """How many moves the timeout policy made for `seat`, once it made `expected` (or `within` seconds passed)."""
    count = sync_to_async(lambda: Move.objects.filter(game=game, seat=seat, cause="timeout").count())
    deadline = time.monotonic() + within
    while await count() < expected and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    return await count()


async def test_a_player_who_leaves_mid_turn_is_timed_out_after_the_grace(memory_channel_layer, settings):
    settings.LIVE_DISCONNECT_GRACE_SECONDS = 1
    game, (alice, _bob) = await sync_to_async(_live_game)(turn_seconds=300)
    full = await sync_to_async(lambda: Game.objects.get(pk=game.pk).deadline)()
    first, second = await connect(game.pk, alice), await connect(game.pk, alice)
    await first.disconnect()
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).deadline)() == full  # another tab is open
    await second.disconnect()
    shortened = await sync_to_async(lambda: Game.objects.get(pk=game.pk).deadline)()
    assert shortened < full and (shortened - timezone.now()).total_seconds() <= 1.5
    timed_out = await timeout_moves(game, seat=0, expected=2)
    assert timed_out == 2  # her set-up settlement and road, played by the policy
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None))()


async def test_without_a_turn_clock_a_player_who_leaves_is_played_for_after_the_grace(memory_channel_layer, settings):
    """No turn clock is no licence to stall the table: once the player who owes a decision has closed their last
    socket, a bot plays for them after the grace (the game's policy, "bot" by default)."""
    settings.LIVE_DISCONNECT_GRACE_SECONDS = 1
    game, (alice, _bob) = await sync_to_async(_live_game)(turn_seconds=60)
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None))()
    socket = await connect(game.pk, alice)
    await socket.disconnect()
    timed_out = await timeout_moves(game, seat=0, expected=2)
    assert timed_out == 2  # her set-up settlement and road, played for her
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).deadline)() is None  # bob has no clock


async def test_without_a_turn_clock_a_player_back_within_the_grace_keeps_their_turn(memory_channel_layer, settings):
    settings.LIVE_DISCONNECT_GRACE_SECONDS = 1
    game, (alice, _bob) = await sync_to_async(_live_game)(turn_seconds=60)
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None))()
    socket = await connect(game.pk, alice)
    await socket.disconnect()
    back = await connect(game.pk, alice)  # a page reload
    await asyncio.sleep(2.5)
    assert not await sync_to_async(lambda: Move.objects.filter(game=game, cause="timeout").exists())()
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).deadline)() is None
    await back.disconnect()
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED))()


async def test_without_a_turn_clock_a_player_still_away_after_others_moved_is_found_by_the_clock_sweep(
    memory_channel_layer, settings
):
    """Another move (a bot's offer round, say) clears the grace a departure set; the minute's clock sweep finds
    the person still away and still owing a decision, and gives them the grace again: the table never stalls."""
    settings.LIVE_DISCONNECT_GRACE_SECONDS = 1
    game, (alice, _bob) = await sync_to_async(_live_game)(turn_seconds=60)
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None))()
    socket = await connect(game.pk, alice)
    await socket.disconnect()
    # What a later move does to a game with no turn clock: no deadline (and the queued timeout is stale).
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(deadline=None, seq=F("seq")))()
    await asyncio.sleep(1.5)  # the grace's own timeout has come and gone
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(deadline=None))()
    assert not await sync_to_async(lambda: Move.objects.filter(game=game, cause="timeout").exists())()
    await sync_to_async(services.tick_all)()  # beat's clock tick
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if await sync_to_async(lambda: Move.objects.filter(game=game, seat=0, cause="timeout").count())() >= 2:
            break
        await asyncio.sleep(0.2)
    assert await sync_to_async(lambda: Move.objects.filter(game=game, seat=0, cause="timeout").count())() == 2


async def test_the_clock_sweep_leaves_a_player_who_never_opened_the_board_alone(memory_channel_layer, settings):
    """Someone who plays without a socket (the REST API) is never taken for someone who left."""
    settings.LIVE_DISCONNECT_GRACE_SECONDS = 1
    game, (_alice, _bob) = await sync_to_async(_live_game)(turn_seconds=60)
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None))()
    await sync_to_async(services.tick_all)()
    await asyncio.sleep(2)
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).deadline)() is None
    assert not await sync_to_async(lambda: Move.objects.filter(game=game, cause="timeout").exists())()
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED))()
