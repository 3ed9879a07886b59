"""What travels to sockets: group names, and the frames a move sends each seat and the spectators.

One move is one `group_send`: the frame of every seat and the spectators' frame, each encoded to JSON once,
travel together to the game's group with the map of which user holds which seat at that move. Each socket
forwards the frame of the seat its user holds in that map, else the spectators' (`GameConsumer.game_frames`):
a seat is resolved per message, never fixed when the socket connected. Update frames leave out the board's
layout (hexes, vertices, edges, harbours), which the "state" frame carries; they keep the robber, the pirate
and the layout's fingerprint, and a client whose layout fingerprint differs asks for a sync. Every frame carries
`seq`.
"""

from __future__ import annotations

from typing import Any

import rules

from ..clocks import away_until
from ..fields import json_dumps


def everyone_group(game_id: int) -> str:
    """Players and spectators alike: moves, seat changes, chat and lobby changes."""
    return f"game-{game_id}-all"


def user_group(user_id: int) -> str:
    """Every socket of one user: account restrictions, mute changes."""
    return f"user-{user_id}"


def frame_key(seat: int | None) -> str:
    """The key of a seat's frame (or the spectators', None) in a `game.frames` message."""
    return "public" if seat is None else str(seat)


def update_message(
    state: rules.State, seat: int | None, seq: int, events: list[dict[str, Any]], extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The frame one seat (or spectators, None) receives after a move: the view without the board's layout, and
    the game's clock (`extra`: its deadline and turn length; in an email game, `seat_clocks`)."""
    return {
        "type": "update",
        "seq": seq,
        **(extra or {}),
        "view": rules.view(state, seat, layout=False),
        "legal": rules.legal_actions(state, seat) if seat is not None else [],
        "events": rules.events_for(events, seat),
    }


def update_frames(
    state: rules.State, seq: int, events: list[dict[str, Any]], extra: dict[str, Any] | None = None
) -> dict[str, str]:
    """Every seat's update frame and the spectators', encoded once: the same frames as `update_message`, with the
    views' public facts built once for all of them (`rules.views`)."""
    views = rules.views(state, layout=False)
    frames = {}
    for seat in [*range(state.players), None]:
        frame = {
            "type": "update",
            "seq": seq,
            **(extra or {}),
            "view": views[-1 if seat is None else seat],
            "legal": rules.legal_actions(state, seat) if seat is not None else [],
            "events": rules.events_for(events, seat),
        }
        frames[frame_key(seat)] = json_dumps(frame)
    return frames


def seat_clock(seat: Any, active: bool) -> dict[str, Any]:
    """A seat's public clock facts in an email game: its deadline (while the game runs) and the end of its
    vacation (this game's or the account's, `clocks.away_until`), in ISO form or None, and its time bank. State
    frames carry them in `seats`, update frames in `seat_clocks`."""
    return {
        "index": seat.index,
        "deadline": seat.deadline.isoformat() if active and seat.deadline else None,
        "vacation_until": back.isoformat() if (back := away_until(seat)) else None,
        # The time bank a seat not due now keeps for its next decisions (a due seat's runs out at its deadline).
        "bank_seconds": seat.bank_seconds if active else None,
    }


def seat_map(user_by_seat: dict[int, int | None]) -> dict[str, int]:
    """{user id (as a string, JSON keys): seat index} for the seats people hold."""
    return {str(user_id): index for index, user_id in user_by_seat.items() if user_id is not None}


def chat_payload(message: Any) -> dict[str, Any]:
    return {
        "type": "chat",
        "id": message.pk,
        "user": message.user.label if message.user else "",
        "user_id": message.user_id,
        "text": message.text,
        "hidden": message.hidden,
        "at": message.created_at.isoformat(),
    }
