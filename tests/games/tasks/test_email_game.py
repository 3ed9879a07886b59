"""A scripted three-player game by email, 400 moves and more through the REST API, every mail through a real SMTP
server: at each change of turn exactly one mail, to the player whose turn it is, and never a repeat (between two of
a player's own moves, at most one mail asking them to decide)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import rules
from games import notifications
from games.autoplay import bot_seed
from games.models import Game, Notification
from rules.ai import move_for
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game as email_game

DECISIONS = {"turn", "discard", "trade", "gold", "decision"}


@pytest.mark.django_db(transaction=True)
def test_a_400_move_email_game_sends_one_mail_per_turn_change_and_no_repeats(smtp, clock, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "moves": 100_000}
    game, users = email_game(humans=3, bots=0)
    clients = []
    for user in users:
        client = APIClient()
        client.force_authenticate(user)
        clients.append(client)
    turn_changes: list[tuple[int, int]] = []  # (seq, seat whose turn began)
    moves_by_user: dict[int, list[int]] = {u.pk: [] for u in users}
    seq = 0
    while seq < 420:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = rules.load(game.state)
        seat = rules.to_move(state)[0]
        before = (state.turn, state.current)
        action = move_for(state, seat, "medium", seed=bot_seed(game.bot_secret, seq, seat))
        response = clients[seat].post(
            f"/api/games/{game.pk}/moves/", {"action": action, "seq": game.seq}, format="json"
        )
        assert response.status_code == 200, response.content
        seq = response.json()["game"]["seq"]
        moves_by_user[users[seat].pk].append(seq)
        after = state_of(game)
        # A turn that passes to someone else (the mover, still on the page, is not mailed about their own turn).
        if (after.turn, after.current) != before and after.phase != "game_over" and after.current != seat:
            turn_changes.append((seq, after.current))
        clock.advance(minutes=1)
    assert seq >= 400 or game.status == Game.Status.FINISHED
    assert len(turn_changes) > 50

    notifications.flush()
    sent = Notification.objects.filter(game=game, sent_at__isnull=False)
    assert len(smtp.messages) == sent.count()  # every row sent is one mail, and one only
    ids = {m["Message-ID"] for m in smtp.messages}
    assert len(ids) == len(smtp.messages)
    by_seq_and_user = {(n.seq, n.user_id): n for n in sent if n.kind == "turn"}
    for change_seq, current in turn_changes:
        mail = by_seq_and_user.get((change_seq, users[current].pk))
        assert mail is not None, f"no turn mail for seat {current} at move {change_seq}"
        others = [n for n in sent if n.seq == change_seq and n.kind == "turn" and n.user_id != users[current].pk]
        assert others == []
    for user in users:
        asks = sorted(n.seq for n in sent if n.user_id == user.pk and n.kind in DECISIONS)
        own = moves_by_user[user.pk]
        for earlier, later in zip(asks, asks[1:], strict=False):
            assert any(earlier <= m < later for m in own) or earlier == later, (
                f"{user} was mailed at moves {earlier} and {later} without moving in between"
            )
