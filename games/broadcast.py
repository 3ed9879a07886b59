"""After a commit: push each seat its own view over the channel layer, and let bots play.

One move is one `group_send`: the frame of every seat and the spectators' frame, each encoded to JSON once,
travel together to the game's group, and each socket forwards only its own (`GameConsumer.game_frames`). Update
frames leave out the board's layout (hexes, vertices, edges, harbours), which the "state" frame carries; they
keep the robber, the pirate and the layout's fingerprint, and a client whose layout fingerprint differs asks
for a sync. Every frame carries `seq`.

Failures of the channel layer are logged, never raised: the move is already safely stored, and clients resync
from the database when they reconnect or see a gap.

Inside a socket's own handler, `collecting()` holds the messages of a move instead of sending them, so that the
async consumer sends them itself (`flush`) without a hop through `async_to_sync`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

import rules

from .fields import json_dumps

logger = logging.getLogger(__name__)

Message = tuple[str, dict[str, Any]]
_outbox = threading.local()


def everyone_group(game_id: int) -> str:
    """Players and spectators alike: moves, chat and lobby changes."""
    return f"game-{game_id}-all"


def frame_key(seat: int | None) -> str:
    """The key of a seat's frame (or the spectators', None) in a `game.frames` message."""
    return "public" if seat is None else str(seat)


def update_message(state: rules.State, seat: int | None, seq: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The frame one seat (or spectators, None) receives after a move: the view without the board's layout."""
    return {
        "type": "update",
        "seq": seq,
        "view": rules.view(state, seat, layout=False),
        "legal": rules.legal_actions(state, seat) if seat is not None else [],
        "events": rules.events_for(events, seat),
    }


def update_frames(state: rules.State, seq: int, events: list[dict[str, Any]]) -> dict[str, str]:
    """Every seat's update frame and the spectators', encoded once."""
    seats: list[int | None] = [*range(state.players), None]
    return {
        frame_key(seat): json_dumps(update_message(state, seat, seq, events)) for seat in seats
    }


def _send_all(messages: list[Message]) -> None:
    """Send every (group, event) in one trip to the event loop, or hold them for `flush` when collecting."""
    if not messages:
        return
    held = getattr(_outbox, "messages", None)
    if held is not None:
        held.extend(messages)
        return
    try:
        try:
            async_to_sync(flush)(messages)
        except asyncio.CancelledError:
            # The request that stored this move was cancelled (its client went away, say a page reloading while
            # its form was still posting) and asgiref cancels what that request awaits. The move is stored:
            # its broadcast, and the bots' moves that follow in-process, must still happen.
            async_to_sync(flush)(messages)
    except Exception:  # the layer being down must not undo a stored move
        logger.exception("channel layer send failed")


@contextlib.contextmanager
def collecting() -> Iterator[list[Message]]:
    """Hold the messages sent in this thread (after commits included) in the yielded list."""
    previous = getattr(_outbox, "messages", None)
    held: list[Message] = []
    _outbox.messages = held
    try:
        yield held
    finally:
        _outbox.messages = previous


async def flush(messages: list[Message]) -> None:
    """Send what `collecting()` held, from async code."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, event in messages:
        try:
            await layer.group_send(group, event)
        except Exception:  # the move is stored; clients resync
            logger.exception("channel layer send failed")


def _send(group: str, payload: dict[str, Any]) -> None:
    _send_all([(group, {"type": "game.message", "payload": payload})])


def after_move(
    game_id: int,
    state: rules.State,
    seq: int,
    events: list[dict[str, Any]],
    bots: dict[int, str] | None = None,
    live: bool = True,
) -> None:
    frames = update_frames(state, seq, events)
    _send_all([(everyone_group(game_id), {"type": "game.frames", "seq": seq, "frames": frames})])
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
