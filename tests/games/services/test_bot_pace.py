"""Bots play at a visible pace outside the person's request, also in-process (`make run`, no broker)."""

from __future__ import annotations

import time

import pytest

import rules
from games import services
from games.models import Move
from tests.games.helpers import started_game, state_of


@pytest.mark.django_db(transaction=True)
def test_in_process_bots_answer_after_the_request_one_visible_move_at_a_time(settings):
    settings.BOT_LIVE_DELAY_SECONDS = 0.6
    game, (alice,) = started_game(humans=1, bots=3, bot_level="easy")
    for _ in range(2):  # alice's set-up settlement and road: then the three bots place theirs
        started = time.monotonic()
        services.move_submit(game_id=game.pk, user=alice, action=rules.legal_actions(state_of(game), 0)[0])
        assert time.monotonic() - started < 0.5  # the request does not wait for the bots
    assert not Move.objects.filter(game=game).exclude(seat=0).exists()
    deadline = time.monotonic() + 60
    while rules.to_move(state_of(game)) != [0] and time.monotonic() < deadline:
        time.sleep(0.1)
    bot_moves = list(Move.objects.filter(game=game).exclude(seat=0).order_by("seq"))
    assert len(bot_moves) == 12  # three bots' two settlements and two roads
    gaps = [(b.created_at - a.created_at).total_seconds() for a, b in zip(bot_moves, bot_moves[1:], strict=False)]
    assert min(gaps) >= 0.5
