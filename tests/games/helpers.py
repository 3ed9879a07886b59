"""Building games for the games tests through the real services."""

from __future__ import annotations

from typing import Any

import rules
from games import services
from games.models import Game
from tests.factories import UserFactory


def started_game(humans: int = 2, bots: int = 2, **kwargs: Any) -> tuple[Game, list]:
    """A started live game with `humans` users (seats 0..) and bots on the remaining seats."""
    users = [UserFactory() for _ in range(humans)]
    seat_count = humans + bots
    game = services.game_create(
        creator=users[0],
        seat_count=seat_count,
        bot_seats=list(range(humans, seat_count)),
        options={"seat_order": "fixed", **kwargs.pop("options", {})},
        **kwargs,
    )
    for user in users[1:]:
        services.seat_join(game_id=game.pk, user=user, invite=game.invite_token)
    services.game_start(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    return game, users


def state_of(game: Game) -> rules.State:
    game.refresh_from_db()
    return rules.load(game.state)


def first_legal(game: Game, seat: int) -> dict:
    return rules.legal_actions(state_of(game), seat)[0]
