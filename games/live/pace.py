"""The bots' pace in a live game, chosen by a person at the table (issue 27): quick, normal or slow. Each bot move
waits BOT_LIVE_DELAY_SECONDS times the pace's factor, so that a person can follow (or hurry) the bots.

The choice is the game's `bot_pace` column: the move path reads it with the game row it locks anyway, so a pace
costs no query nor cache round trip."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from infra.errors import GameError

from ..models import Game, Seat

PACES = {"quick": 0.4, "normal": 1.0, "slow": 2.5}
DEFAULT = "normal"


def bot_pace(game: Game) -> str:
    """The game's bots' pace: one of PACES."""
    return game.bot_pace if game.bot_pace in PACES else DEFAULT


def bot_pace_set(*, game_id: int, user: Any, pace: Any) -> str:
    """A person seated in the game sets its bots' pace; anything but a known pace changes nothing."""
    if pace not in PACES:
        raise GameError("bad_pace", _("The bots' pace is quick, normal or slow."))
    if not getattr(user, "is_authenticated", False) or not Seat.objects.filter(game_id=game_id, user=user).exists():
        raise GameError("not_seated", _("Only a player of this game can set its bots' pace."), status=403)
    Game.objects.filter(pk=game_id).update(bot_pace=pace)
    return pace


def bot_delay(live: bool, pace: str = DEFAULT) -> float:
    """Live players follow the bots' moves: each waits a visible moment, as the game's pace says. By email, bots
    answer at once."""
    if not live:
        return 0.0
    return settings.BOT_LIVE_DELAY_SECONDS * PACES.get(pace, 1.0)
