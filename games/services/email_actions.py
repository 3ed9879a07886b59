"""Deciding from an email: the common decisions that need no board (answer a trade, roll, end the turn, the
standing discard), by a link or by replying with one word. Each email's decision has its own unguessable code
(`Notification.action_code`), bound to its player, game and move number (`seq`): once the game has moved on it
answers "already decided" and changes nothing. A link opens a page with one button (a POST): mail scanners open
links, and must not play for anyone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

import rules
from infra.errors import GameError
from rules.ai.autoplay import offered_verbs, standing_order_action
from rules.constants import RESOURCES

from .. import access
from ..mail import notifications
from ..models import Game, Move, Notification, Seat
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
    """Play `verb` for the seat of the email's reader if the game still waits on the decision it was about. When
    that leaves the reader still to act (a roll), the next email says what comes next: they are not on the page."""
    if verb not in VERBS:
        raise GameError("bad_verb", _("Answer with accept, reject, roll, end or discard."))
    notification = notification_for(code)
    user = notification.user
    for _attempt in range(3):
        game, held, state = _open_decision(notification, verb)
        action = _action(state, held.index, verb, held.standing_orders or {})
        try:
            result = move_submit(game_id=game.pk, user=user, action=action, expected_seq=game.seq)
        except GameError as error:
            if error.code == "stale":
                continue  # someone else answered meanwhile: look again
            raise
        notifications.create_after_email_decision(game.pk, user)
        return result
    raise _already_decided()


def check_open(notification: Notification, verb: Any) -> None:
    """Read-only: raises "already decided" (or another GameError) unless a POST of `verb` from this email's link
    would still be played. The link's page offers its button only then."""
    _open_decision(notification, verb)


def _open_decision(notification: Notification, verb: Any) -> tuple[Game, Seat, rules.State]:
    """The game, the reader's seat and the state, if the game still waits on the decision the email was about and
    offers `verb` to the reader; else "already decided"."""
    game, held = access.player_seat(game_id=notification.game_id, user=notification.user)
    if game.status != Game.Status.ACTIVE or not _still_asked(notification, game.seq, held.index):
        raise _already_decided()
    state = rules.load(game.state)
    if verb not in offered_verbs(state, held.index):
        raise _already_decided()
    return game, held, state


# Moves by others that leave a decision asked of several people at once (a trade offer's replies, the discards
# after a 7) as it was: the reader still owes the same answer to the same question.
SIDE_ANSWERS = {"accept_trade", "reject_trade", "discard"}


def _still_asked(notification: Notification, seq: int, seat: int) -> bool:
    """Whether the decision the email asked about is still the one the game waits on: nothing moved since it was
    written, or only others answering the same question (the reader was not mailed again for those)."""
    if seq == notification.seq:
        return True
    since = Move.objects.filter(game_id=notification.game_id, seq__gt=notification.seq)
    return all(
        mover != seat and isinstance(action, dict) and action.get("type") in SIDE_ANSWERS
        for mover, action in since.values_list("seat", "action")
    )


def _already_decided() -> GameError:
    return GameError("already_decided", _("This was already decided: the game has moved on."), status=409)
