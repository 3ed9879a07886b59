"""After a commit: push each seat its own view over the channel layer, and let bots play.

Every message carries `seq`. Failures of the channel layer are logged, never raised: the move is already
safely stored, and clients resync from the database when they reconnect or see a gap.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

import rules

logger = logging.getLogger(__name__)


def seat_group(game_id: int, seat: int) -> str:
    return f"game-{game_id}-seat-{seat}"


def public_group(game_id: int) -> str:
    return f"game-{game_id}-public"


def everyone_group(game_id: int) -> str:
    """Players and spectators alike: chat and lobby changes."""
    return f"game-{game_id}-all"


def update_message(state: rules.State, seat: int | None, seq: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The frame one seat (or spectators, None) receives after a move."""
    return {
        "type": "update",
        "seq": seq,
        "view": rules.view(state, seat),
        "legal": rules.legal_actions(state, seat) if seat is not None else [],
        "events": rules.events_for(events, seat),
    }


def _send(group: str, payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "game.message", "payload": payload})
    except Exception:  # the layer being down must not undo a stored move
        logger.exception("channel layer send to %s failed", group)


def after_move(game_id: int, state: rules.State, seq: int, events: list[dict[str, Any]]) -> None:
    for seat in range(state.players):
        _send(seat_group(game_id, seat), update_message(state, seat, seq, events))
    _send(public_group(game_id), update_message(state, None, seq, events))
    from .tasks import schedule_bots

    schedule_bots(game_id, state)


def lobby_changed(game_id: int) -> None:
    _send(everyone_group(game_id), {"type": "lobby"})


def chat(game_id: int, message: Any) -> None:
    payload = {
        "type": "chat",
        "id": message.pk,
        "user": message.user.label if message.user else "",
        "text": message.text,
        "at": message.created_at.isoformat(),
    }
    _send(everyone_group(game_id), payload)
