"""A live turn clock's disconnect grace: once the player who owes a decision has closed their last socket on the
game, the table waits only LIVE_DISCONNECT_GRACE_SECONDS for them, then the timeout policy plays their turn. A
second tab still open keeps the full clock."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.models import Game, Move
from tests.games.consumers.test_game_socket import connect
from tests.games.services.test_turn_clock import _live_game

pytestmark = pytest.mark.django_db(transaction=True)


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
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if await sync_to_async(lambda: Move.objects.filter(game=game, seat=0, cause="timeout").count())() >= 2:
            break
        await asyncio.sleep(0.2)
    timed_out = await sync_to_async(lambda: Move.objects.filter(game=game, seat=0, cause="timeout").count())()
    assert timed_out == 2  # her set-up settlement and road, played by the policy
    await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(turn_seconds=None, deadline=None))()
