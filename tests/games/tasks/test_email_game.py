"""Scripted three-player games by email, 400 moves and more in all, each played to its end through the REST API,
every mail through a real SMTP server: at each change of turn exactly one mail, to the player whose turn it is,
and never a repeat (between two of a player's own moves, at most one mail asking them to decide)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import rules
from games.mail import notifications
from games.models import Game, Notification
from rules.ai import move_for
from rules.ai.autoplay import bot_seed
from tests.games.helpers import state_of
from tests.games.tasks.conftest import async_game as email_game

DECISIONS = {"turn", "discard", "trade", "gold", "decision"}
MOVES_IN_ALL = 400
MOST_MOVES_PER_GAME = 2000  # a game that never ends fails the test rather than hanging it
# A tiny PNG in place of the board's picture: rendering it took a third of this test's time, and what this test
# counts is mail; tests/games/tasks/test_email_content.py checks the real picture.
PNG = b"\x89PNG\r\n\x1a\n"


def _play_to_the_end(game: Game, users: list, clock) -> tuple[int, list[tuple[int, int]], dict[int, list[int]]]:
    """Play the game out, each move by its player over REST; its move count, its turn changes (seq, the seat whose
    turn began) and each player's own moves."""
    clients = []
    for user in users:
        client = APIClient()
        client.force_authenticate(user)
        clients.append(client)
    turn_changes: list[tuple[int, int]] = []
    moves_by_user: dict[int, list[int]] = {u.pk: [] for u in users}
    moves = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert moves < MOST_MOVES_PER_GAME, f"game {game.pk} did not end"
        state = rules.load(game.state)
        seat = rules.to_move(state)[0]
        before = (state.turn, state.current)
        action = move_for(state, seat, "medium", seed=bot_seed(game.bot_secret, game.seq, seat))
        response = clients[seat].post(
            f"/api/games/{game.pk}/moves/", {"action": action, "seq": game.seq}, format="json"
        )
        assert response.status_code == 200, response.content
        seq = response.json()["game"]["seq"]
        moves += 1
        moves_by_user[users[seat].pk].append(seq)
        after = state_of(game)
        # A turn that passes to someone else (the mover, still on the page, is not mailed about their own turn).
        if (after.turn, after.current) != before and after.phase != "game_over" and after.current != seat:
            turn_changes.append((seq, after.current))
        clock.advance(minutes=1)
    assert game.status == Game.Status.FINISHED
    return moves, turn_changes, moves_by_user


@pytest.mark.django_db(transaction=True)
def test_400_moves_of_email_games_send_one_mail_per_turn_change_to_the_right_player_and_no_repeats(
    smtp, clock, settings, monkeypatch
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "moves": 100_000}
    monkeypatch.setattr("cairosvg.svg2png", lambda **kwargs: PNG)
    moves_in_all = turn_changes_in_all = games = 0
    while moves_in_all < MOVES_IN_ALL:
        game, users = email_game(humans=3, bots=0)
        moves, turn_changes, moves_by_user = _play_to_the_end(game, users, clock)
        moves_in_all += moves
        turn_changes_in_all += len(turn_changes)
        games += 1
        notifications.flush()

        sent = list(Notification.objects.filter(game=game, sent_at__isnull=False))
        mail = {m["Message-ID"]: m for m in smtp.messages}
        assert all(notifications.message_id(n) in mail for n in sent)  # every row sent is a mail...
        emails = {u.pk: u.email for u in users}
        for change_seq, current in turn_changes:
            # ...and at each change of turn exactly one, to the player whose turn it is.
            turn = [n for n in sent if n.seq == change_seq and n.kind == "turn"]
            assert [n.user_id for n in turn] == [users[current].pk], f"move {change_seq}: {turn}"
            assert mail[notifications.message_id(turn[0])]["To"] == emails[users[current].pk]
        for user in users:
            asks = sorted(n.seq for n in sent if n.user_id == user.pk and n.kind in DECISIONS)
            own = moves_by_user[user.pk]
            for earlier, later in zip(asks, asks[1:], strict=False):
                assert any(earlier <= m < later for m in own), (
                    f"{user} was mailed at moves {earlier} and {later} without moving in between"
                )
    assert moves_in_all >= MOVES_IN_ALL and turn_changes_in_all > 100
    ids = [m["Message-ID"] for m in smtp.messages]
    assert len(ids) == len(set(ids)) == Notification.objects.filter(sent_at__isnull=False).count()  # once each
