"""The game page's clock in an email game: update frames carry each seat's public clock facts (deadline and
vacation), so an open page shows the new player's deadline after a turn change (issue 18, item 7)."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from django.db import connection

import rules
from games import outbox, services
from games.models import Seat
from tests.games.helpers import started_game, state_of
from tests.games.servers import frames_until, open_socket
from tests.games.tasks.conftest import async_game


def apart() -> None:
    """Game ids no other test suite on this Redis uses now: Pub/Sub channels ignore the Redis database number,
    so another suite's game 1 would talk into this one's sockets."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('games_game', 'id'), %s)", [secrets.randbelow(10**9) + 10**6]
        )


@pytest.mark.django_db(transaction=True)
def test_an_update_frame_carries_the_new_player_s_deadline_and_every_seat_s_vacation(server):
    apart()
    game, (alice, bob) = async_game()
    services.vacation_start(game_id=game.pk, user=alice, days=2)
    until = Seat.objects.get(game=game, index=0).vacation_until

    def alice_places() -> None:
        for _ in range(2):  # her settlement, then her road: the turn passes to Bob
            services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])

    async def scenario() -> list[dict]:
        ws = await open_socket(server, game.pk, bob)
        await asyncio.to_thread(alice_places)
        seen = await frames_until(ws, lambda f: f["type"] == "update" and f["seq"] == 2, timeout=30)
        await ws.close()
        return seen

    frame = asyncio.run(scenario())[-1]
    bob_seat = Seat.objects.get(game=game, index=1)
    assert bob_seat.deadline is not None
    clocks = frame["seat_clocks"]
    assert [c["index"] for c in clocks] == [0, 1, 2]
    assert clocks[1]["deadline"] == bob_seat.deadline.isoformat()
    assert clocks[0]["deadline"] is None and clocks[2]["deadline"] is None
    assert clocks[0]["vacation_until"] == until.isoformat()


@pytest.mark.django_db
def test_live_games_update_frames_carry_no_seat_clocks(monkeypatch, django_capture_on_commit_callbacks):
    game, (alice, _bob) = started_game()
    sent: list = []
    monkeypatch.setattr(outbox, "_send_all", sent.extend)
    with django_capture_on_commit_callbacks(execute=True):
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
    frames = [message["frames"] for _group, message in sent if message["type"] == "game.frames"]
    assert frames and all("seat_clocks" not in frame for frame in frames[0].values())
