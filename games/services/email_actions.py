"""Deciding from an email: the common decisions that need no board (answer a trade, roll, end the turn, the
standing discard), by a link or by replying with one word. Each email's decision has its own unguessable code
(`Notification.action_code`), bound to its player, game and move number (`seq`): once the game has moved on it
answers "already decided" and changes nothing. A link opens a page with one button (a POST): mail scanners open
links, and must not play for anyone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

import rules
from rules.constants import RESOURCES

from .. import access
from ..autoplay import offered_verbs, standing_order_action
from ..errors import GameError
from ..models import Game, Notification
from .moves import MoveResult, move_submit

VERBS = ("accept", "reject", "roll", "end", "discard")


def _action(state: rules.State, seat: int, verb: str, orders: dict[str, Any]) -> dict[str, Any]:
    if verb == "accept":
        return {"type": "accept_trade"}
    if verb == "reject":
        return {"type": "reject_trade"}
    if verb == "roll":
        return {"type": "roll"}
    if verb == "end":
        return {"type": "end_turn"}
    # The standing discard: the player's own priority if they set one, else the most plentiful cards first.
    hand = state.hands[seat]
    priority = orders.get("discard_priority") or sorted(RESOURCES, key=lambda name: -hand[RESOURCES.index(name)])
    action = standing_order_action(
        rules.view(state, seat), rules.legal_actions(state, seat), {"discard_priority": priority}
    )
    if action is None:
        raise _already_decided()
    return action


def notification_for(code: Any) -> Notification:
    notification = None
    if isinstance(code, str) and len(code) == 24:
        notification = Notification.objects.select_related("user").filter(action_code=code.lower()).first()
    if notification is None or not notification.user.is_active:
        raise GameError("not_found", _("This link is not valid."), status=404)
    return notification


def decide_from_email(*, code: str, verb: Any) -> MoveResult:
    """Play `verb` for the seat of the email's reader if the game still waits on the decision it was about."""
    if verb not in VERBS:
        raise GameError("bad_verb", _("Answer with accept, reject, roll, end or discard."))
    notification = notification_for(code)
    user, seq = notification.user, notification.seq
    game, held = access.player_seat(game_id=notification.game_id, user=user)
    seat = held.index
    if game.seq != seq or game.status != Game.Status.ACTIVE:
        raise _already_decided()
    state = rules.load(game.state)
    if verb not in offered_verbs(state, seat):
        raise _already_decided()
    action = _action(state, seat, verb, held.standing_orders or {})
    try:
        return move_submit(game_id=game.pk, user=user, action=action, expected_seq=seq)
    except GameError as error:
        if error.code == "stale":
            raise _already_decided() from None
        raise


def _already_decided() -> GameError:
    return GameError("already_decided", _("This was already decided: the game has moved on."), status=409)
