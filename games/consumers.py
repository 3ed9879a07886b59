"""WebSocket consumers: a ping/echo through the channel layer, and the live game socket."""

from __future__ import annotations

import json
import uuid
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext as _

from . import broadcast, selectors, services
from .broadcast import everyone_group, frame_key
from .errors import GameError
from .models import Game
from .moderation import user_group


def _submit_collecting(**kwargs: Any) -> tuple[services.MoveResult, list[broadcast.Message]]:
    """`services.move_submit`, holding its broadcast for the consumer to send from the event loop."""
    with broadcast.collecting() as messages:
        result = services.move_submit(**kwargs)
    return result, messages


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Answers {"type": "ping", "n": ...} with a pong that has made a round trip through the channel layer."""

    async def connect(self) -> None:
        self.group = f"ping-{uuid.uuid4().hex}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"type": "error", "code": "unknown_type", "message": "Send {'type': 'ping'}."})
            return
        await self.channel_layer.group_send(self.group, {"type": "ping.echo", "n": content.get("n")})

    async def ping_echo(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "n": event.get("n"), "via": type(self.channel_layer).__name__})


class GameConsumer(AsyncJsonWebsocketConsumer):
    """One socket per game page. A seat receives only its own view; spectators the public one.

    Client frames: {"type": "move", "action": {...}, "seq": n, "key": "..."} · {"type": "sync"} ·
    {"type": "chat", "text": "..."} · {"type": "ping"}. Server frames: "state" (full view), "update"
    (after each move, with seq), "ack", "chat", "lobby", "error" {code, message}.
    """

    MAX_FRAME_BYTES = 8192

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` before every message: that is a hop to the
        sync thread for each frame forwarded to each seat, a fifth of a live server's time. Every database call
        here goes through `database_sync_to_async`, which closes stale connections in its own thread."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        allowed, self.seat = await self._access()
        if not allowed:
            await self.close(code=4404)
            return
        self.frame = frame_key(self.seat)
        self.groups_joined = [everyone_group(self.game_id)]
        if self.user is not None and self.user.is_authenticated:
            self.groups_joined.append(user_group(self.user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_json(await self._state_frame())

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode("utf-8")) > self.MAX_FRAME_BYTES:
            await self._error("frame_too_large", _("Message too large."))
            return
        try:
            content = json.loads(raw)
        except ValueError:
            await self._error("malformed", _("Messages are JSON objects."))
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self._error("malformed", _("Messages are JSON objects with a 'type'."))
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content["type"]
        if kind == "ping":
            # The heartbeat's answer carries the game's last move number, so a client that missed an update
            # (a dropped frame, a channel-layer hiccup) notices within one heartbeat and asks for the state.
            await self.send_json({"type": "pong", "seq": await self._seq()})
        elif kind == "sync":
            await self.send_json(await self._state_frame())
        elif kind == "move":
            await self._move(content)
        elif kind == "chat":
            await self._chat(content)
        else:
            await self._error("unknown_type", _("Unknown message type."))

    async def game_message(self, event: dict[str, Any]) -> None:
        await self.send_json(event["payload"])

    async def game_frames(self, event: dict[str, Any]) -> None:
        """A move: forward this socket's own frame, already encoded, and nobody else's."""
        frame = event["frames"].get(self.frame)
        if frame is not None:
            await self.send(text_data=frame)

    async def user_restricted(self, event: dict[str, Any]) -> None:
        """A moderator suspended or banned this user: say so, and hang up."""
        await self.send_json({"type": "error", "code": "account_restricted", "message": str(_("Account suspended."))})
        await self.close(code=4403)

    async def _move(self, content: dict[str, Any]) -> None:
        if self.seat is None:
            await self._error("not_a_player", _("You have no seat in this game."))
            return
        try:
            result, messages = await database_sync_to_async(_submit_collecting, thread_sensitive=False)(
                game_id=self.game_id,
                user=self.user,
                action=content.get("action"),
                expected_seq=content.get("seq"),
                idempotency_key=content.get("key"),
            )
            await broadcast.flush(messages)
        except GameError as error:
            await self.send_json({"type": "error", **error.as_dict()})
            if error.code == "stale":
                await self.send_json(await self._state_frame())
            return
        await self.send_json(
            {"type": "ack", "seq": result.seq, "key": content.get("key"), "duplicate": result.duplicate}
        )

    async def _chat(self, content: dict[str, Any]) -> None:
        try:
            await database_sync_to_async(services.chat_post)(
                game_id=self.game_id, user=self.user, text=content.get("text")
            )
        except GameError as error:
            await self.send_json({"type": "error", **error.as_dict()})

    async def _error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": str(message)})

    @database_sync_to_async
    def _access(self) -> tuple[bool, int | None]:
        """(may see the game, the user's seat or None for a spectator)."""
        game = Game.objects.prefetch_related("seats").filter(pk=self.game_id).first()
        if game is None:
            return False, None
        seat = selectors.seat_of(game, self.user)
        if game.visibility == Game.Visibility.PRIVATE and seat is None:
            query = parse_qs(self.scope.get("query_string", b"").decode())
            if query.get("invite", [""])[0] != game.invite_token:
                return False, None
        return True, (seat.index if seat is not None else None)

    @database_sync_to_async
    def _seq(self) -> int | None:
        return Game.objects.filter(pk=self.game_id).values_list("seq", flat=True).first()

    @database_sync_to_async
    def _state_frame(self) -> dict[str, Any]:
        game = Game.objects.prefetch_related("seats__user").get(pk=self.game_id)
        return {"type": "state", **selectors.game_view(game, self.user)}
