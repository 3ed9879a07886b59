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


def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send every (group, payload) in one trip to the event loop: one hop per move, not one per seat."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send() -> None:
        for group, payload in messages:
            await layer.group_send(group, {"type": "game.message", "payload": payload})

    try:
        async_to_sync(send)()
    except Exception:  # the layer being down must not undo a stored move
        logger.exception("channel layer send failed")


def _send(group: str, payload: dict[str, Any]) -> None:
    _send_all([(group, payload)])


def after_move(
    game_id: int,
    state: rules.State,
    seq: int,
    events: list[dict[str, Any]],
    bots: dict[int, str] | None = None,
    live: bool = True,
) -> None:
    messages = [(seat_group(game_id, seat), update_message(state, seat, seq, events)) for seat in range(state.players)]
    messages.append((public_group(game_id), update_message(state, None, seq, events)))
    _send_all(messages)
    from .tasks import schedule_bots

    schedule_bots(game_id, state, bots=bots, live=live)


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
