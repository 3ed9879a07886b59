"""WebSocket consumers: a ping/echo through the channel layer, and the live game socket."""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
import uuid
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.functional import empty
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from infra import drain, logs, metrics, timing
from infra.errors import GameError
from infra.realtime.socket_loop import OneQueueLoop

from . import access, outbox, selectors, services
from .fields import json_dumps
from .live import presence
from .live.frames import everyone_group, frame_key, user_group
from .live.pace import bot_pace_set
from .models import Game
from .signals import private_game_watched

logger = logging.getLogger(__name__)
LAYER_WAIT = 5.0  # seconds a closing socket waits for the channel layer to drop it from a group


def _submit_collecting(**kwargs: Any) -> tuple[services.MoveResult, list[outbox.Message]]:
    """`services.move_submit`, holding its messages for the consumer to send from the event loop."""
    with outbox.collecting() as messages:
        result = services.move_submit(**kwargs)
    return result, messages


def _submit_fresh(kwargs: dict[str, Any]) -> tuple[services.MoveResult, list[outbox.Message]]:
    """The move, and its frames published from this thread once it is stored, where the layer can: then the
    event loop only answers the mover. Otherwise the messages go back for the loop to send."""
    # As before a request: the thread's connection is dropped first if it broke or outlived CONN_MAX_AGE.
    connections[DEFAULT_DB_ALIAS].close_if_unusable_or_obsolete()
    result, messages = _submit_collecting(**kwargs)
    return result, [] if outbox.publish_now(messages) else messages


async def _submit_in_thread(**kwargs: Any) -> tuple[services.MoveResult, list[outbox.Message]]:
    """The whole move in one trip to a worker thread of the loop's pool (not the one thread `thread_sensitive`
    calls share), in a copy of this context (the language, the move's timing probe). Channels'
    `database_sync_to_async` did the same through asgiref's SyncToAsync, with two sweeps of every connection
    of the thread around the call: a twentieth of a live move's server time."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, contextvars.copy_context().run, _submit_fresh, kwargs)


def _chat_collecting(**kwargs: Any) -> list[outbox.Message]:
    with outbox.collecting() as messages:
        services.chat_post(**kwargs)
    return messages


def _depth_ok(value: Any, limit: int) -> bool:
    """Whether `value` nests at most `limit` containers deep (a client's frame is a small, flat object)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Answers {"type": "ping", "n": ...} with a pong that has made a round trip through the channel layer."""

    async def connect(self) -> None:
        self.group = f"ping-{uuid.uuid4().hex}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return json.loads(text_data)
        except (ValueError, RecursionError):
            return None  # answered as an unknown message, never a dropped socket

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if text_data is None:  # a binary frame: the JSON consumer would raise and drop the socket
            await self.send_json({"type": "error", "code": "malformed", "message": "Send text frames."})
            return
        await super().receive(text_data=text_data, **kwargs)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"type": "error", "code": "unknown_type", "message": "Send {'type': 'ping'}."})
            return
        await self.channel_layer.group_send(self.group, {"type": "ping.echo", "n": content.get("n")})

    async def ping_echo(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "n": event.get("n"), "via": type(self.channel_layer).__name__})


class GameConsumer(OneQueueLoop, AsyncJsonWebsocketConsumer):
    """One socket per game page. It forwards the frames of the seat its user holds at each message (a seat
    change publishes a seat event: the socket then sends the new seat's state, or the spectators', or closes
    when its user may no longer see the game); spectators get the public frames.

    Client frames: {"type": "move", "action": {...}, "seq": n, "key": "..."} · {"type": "sync"} ·
    {"type": "chat", "text": "..."} · {"type": "report", "message_id": id, "reason": "..."} · {"type": "ping"} ·
    {"type": "bot_pace", "pace": "quick" | "normal" | "slow"}.
    Server frames: "state" (full view), "update" (after each move, with seq), "ack", "chat", "chat_hidden"
    {id, hidden, text}, "reported", "lobby", "pong", "error" {code, message}, "restarting" (the node drains; the
    socket then closes with 1012).
    """

    MAX_FRAME_BYTES = 8192
    MAX_DEPTH = 8

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Frames by orjson (the opening state frame is the largest), as the move's frames are."""
        return json_dumps(content)

    async def send_json(self, content: Any, close: bool = False) -> None:
        """A frame straight to the server's send: through Channels' `send_json`, `send` and `send` again it was a
        call each (the mover's ack, every move), with the same message at the end."""
        await self.base_send({"type": "websocket.send", "text": json_dumps(content)})
        if close:
            await self.close()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` before every message: that is a hop to the
        sync thread for each frame forwarded to each seat, a fifth of a live server's time. Every database call
        here goes through `database_sync_to_async`, which closes stale connections in its own thread."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        timing.ensure_watching()
        presence.ensure_heartbeat()
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        # The user AuthMiddleware resolved, out of its lazy wrapper: a move reads the user's id and flags a few
        # times, in the worker thread, and each read through the wrapper was a call of its own.
        user = self.scope.get("user")
        wrapped = getattr(user, "_wrapped", empty)
        self.user = user if wrapped is empty else wrapped
        # The key of this socket's user in a move's seat map, resolved once: a socket's user never changes, and
        # each forwarded frame would otherwise go through the lazy user object (`access.seat_index_in`).
        self.user_key = str(self.user.pk) if self.user is not None and self.user.is_authenticated else None
        # This socket's task logs with its game and user; each frame binds its own request id (`receive`).
        logs.bind(game_id=self.game_id, user_id=self.user_key, request_id=logs.request_id_from(None))
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.invite = query.get("invite", [""])[0]
        # Two trips to a worker thread, not five, and not on the one thread that `thread_sensitive` calls share:
        # after a restart every socket of a server connects at once, and each had waited behind all the others'
        # queries, unable to read the frames of moves meanwhile (the load benchmark's tail, docs/PERFORMANCE.md).
        opening = await database_sync_to_async(self._seat_and_mutes, thread_sensitive=False)()
        if opening is None:
            await self.close(code=4404)
            return
        self.seat, self.muted = opening
        self.groups_joined = [everyone_group(self.game_id)]
        if self.user is not None and self.user.is_authenticated:
            self.groups_joined.append(user_group(self.user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        drain.socket_opened(self.channel_name)
        self.counted = True
        metrics.SOCKETS_OPEN.inc()
        # Read after joining the groups: a move made meanwhile is in this frame or arrives as an update.
        self.present = self.seat is not None
        state = await database_sync_to_async(self._state_and_presence, thread_sensitive=False)()
        await self.send_json(state)
        if self.seat is None:
            await self._watch_audit()

    async def disconnect(self, code: int) -> None:
        drain.socket_closed(self.channel_name)
        if getattr(self, "counted", False):
            self.counted = False
            metrics.SOCKETS_OPEN.dec()
        # The table first: a channel layer that is down (its Redis is not the cache's in a fleet) must not leave a
        # closed socket counted at the table, renewed by this node's heartbeat for as long as it lives.
        try:
            if (
                getattr(self, "present", False)
                and not await database_sync_to_async(presence.left)(self.game_id, self.user.pk, self.channel_name)
                and not drain.is_draining()  # the node restarts, not the player: they are back within a second
            ):
                # Their last socket on this game: a live turn clock waits only a grace period for them now.
                await database_sync_to_async(services.player_left)(game_id=self.game_id, user_id=self.user.pk)
        finally:
            for group in getattr(self, "groups_joined", []):
                try:
                    await asyncio.wait_for(self.channel_layer.group_discard(group, self.channel_name), LAYER_WAIT)
                except (OSError, TimeoutError, RedisError):
                    # The layer is down or stalled: this socket's subscription goes with the connection it lost.
                    logger.warning("could not leave group %s: the channel layer is unavailable", group)

    async def server_restarting(self, event: dict[str, Any]) -> None:
        """This node drains (infra/drain.py): after what came before (a move in flight is answered first), a
        last frame, and the close that tells the client to reconnect at once, to another node."""
        await self.send_json({"type": "restarting", "message": _("The server is restarting: reconnecting…")})
        await self.close(code=drain.SERVICE_RESTART)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self._received = time.perf_counter()
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw) > self.MAX_FRAME_BYTES or len(raw.encode("utf-8", "surrogatepass")) > self.MAX_FRAME_BYTES:
            await self._error("frame_too_large", _("Message too large."))
            return
        try:
            content = json.loads(raw)
        except (ValueError, RecursionError):
            await self._error("malformed", _("Messages are JSON objects."))
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self._error("malformed", _("Messages are JSON objects with a 'type'."))
            return
        if not _depth_ok(content, self.MAX_DEPTH):
            await self._error("malformed", _("Messages are small JSON objects."))
            return
        if content["type"] != "ping":
            # The client may name the frame ("rid"): its move, the outbox rows and the tasks that follow log it.
            logs.bind(request_id=logs.request_id_from(content.get("rid")))
        try:
            await self.receive_json(content)
        except Exception:
            # A fault nobody foresaw (the database or the cache going away mid-message): the player gets an
            # error frame and keeps the socket; the details go to the log, never to the client.
            logger.exception("game %s: socket message %r failed", self.game_id, content.get("type"))
            await self._error("server_error", _("Something went wrong on our side; please try again."))

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
        elif kind == "report":
            await self._report(content)
        elif kind == "bot_pace":
            await self._bot_pace(content)
        else:
            await self._error("unknown_type", _("Unknown message type."))

    async def game_message(self, event: dict[str, Any]) -> None:
        payload = event["payload"]
        if payload.get("type") == "chat" and payload.get("user_id") in self.muted:
            return
        await self.send_json(payload)

    async def game_frames(self, event: dict[str, Any]) -> None:
        """A move: forward the frame of the seat this socket's user held at that move, already encoded, and
        nobody else's (the spectators' when they held none)."""
        timing.delivered(event)
        seat = event.get("seats", {}).get(self.user_key) if self.user_key is not None else None
        frame = event["frames"].get(frame_key(seat))
        if frame is not None:
            await self.base_send({"type": "websocket.send", "text": frame})

    async def game_seats(self, event: dict[str, Any]) -> None:
        """Someone took, left or lost a seat: follow this user's seat now, or close if they may no longer see."""
        seat = access.seat_index_in(event.get("seats", {}), self.user)
        if seat == self.seat:
            return
        self.seat = await self._resolve_seat()
        if self.seat is False:
            await self._error("not_found", _("You can no longer see this game."))
            await self.close(code=4404)
            return
        await self.send_json(await self._state_frame())

    async def user_restricted(self, event: dict[str, Any]) -> None:
        """A moderator suspended or banned this user: say so, and hang up."""
        await self.send_json({"type": "error", "code": "account_restricted", "message": str(_("Account suspended."))})
        await self.close(code=4403)

    async def user_mutes(self, event: dict[str, Any]) -> None:
        """This user muted or unmuted someone: filter live chat by the new list."""
        self.muted = await database_sync_to_async(services.chat.muted_ids)(self.user)

    async def _move(self, content: dict[str, Any]) -> None:
        timing.begin(self._received)
        timing.mark("parse")
        try:
            result, messages = await _submit_in_thread(
                game_id=self.game_id,
                user=self.user,
                action=content.get("action"),
                expected_seq=content.get("seq"),
                idempotency_key=content.get("key"),
            )
            timing.mark("to_loop")
            await outbox.flush(messages)
            timing.mark("fanout")
        except GameError as error:
            timing.end(accepted=False)
            await self.send_json({"type": "error", **error.as_dict()})
            if error.code == "stale":
                await self.send_json(await self._state_frame())
            return
        await self.send_json(
            {"type": "ack", "seq": result.seq, "key": content.get("key"), "duplicate": result.duplicate}
        )
        timing.mark("ack")
        timing.end(accepted=True)

    async def _chat(self, content: dict[str, Any]) -> None:
        try:
            messages = await database_sync_to_async(_chat_collecting)(
                game_id=self.game_id, user=self.user, text=content.get("text")
            )
            await outbox.flush(messages)
        except GameError as error:
            await self.send_json({"type": "error", **error.as_dict()})

    async def _report(self, content: dict[str, Any]) -> None:
        """A player reports a chat message: {"type": "report", "message_id": id, "reason": text}."""
        message_id = content.get("message_id")
        try:
            if type(message_id) is not int:
                raise GameError("no_message", _("No such message in this game."), status=404)
            await database_sync_to_async(services.report_create)(
                reporter=self.user, game_id=self.game_id, reason=content.get("reason"), message_id=message_id
            )
        except GameError as error:
            await self.send_json({"type": "error", **error.as_dict()})
            return
        await self.send_json({"type": "reported", "message_id": message_id})

    async def _bot_pace(self, content: dict[str, Any]) -> None:
        """A player sets the game's bots' pace: {"type": "bot_pace", "pace": "quick" | "normal" | "slow"}."""
        try:
            pace = await database_sync_to_async(bot_pace_set)(
                game_id=self.game_id, user=self.user, pace=content.get("pace")
            )
        except GameError as error:
            await self.send_json({"type": "error", **error.as_dict()})
            return
        await self.send_json({"type": "bot_pace", "pace": pace})

    async def _error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": str(message)})

    def _seat_and_mutes(self) -> tuple[int | None, set[int]] | None:
        """The user's seat (None: a spectator) and whom they muted; None when they may not see the game."""
        seat = self._seat_now()
        if seat is False:
            return None
        return seat, services.chat.muted_ids(self.user)

    def _state_and_presence(self) -> dict[str, Any]:
        """The opening state frame; a seated player is counted at the table (the live clock's disconnect grace)."""
        if self.present:
            presence.joined(self.game_id, self.user.pk, self.channel_name)
        return self._state_frame_now()

    @database_sync_to_async
    def _resolve_seat(self) -> int | None | bool:
        return self._seat_now()

    def _seat_now(self) -> int | None | bool:
        """The user's seat index now, None for a spectator, False when they may not see the game."""
        try:
            _game, seat = access.game_for_viewer(game_id=self.game_id, user=self.user, invite=self.invite)
        except GameError:
            return False
        return seat.index if seat is not None else None

    @database_sync_to_async
    def _watch_audit(self) -> None:
        """A moderator watching a private game they do not play in: audited once per visit (the session's)."""
        session = self.scope.get("session")
        answers = private_game_watched.send(sender=Game, viewer=self.user, game_id=self.game_id, session=session)
        if any(changed for _receiver, changed in answers):
            session.save()

    @database_sync_to_async
    def _seq(self) -> int | None:
        return Game.objects.filter(pk=self.game_id).values_list("seq", flat=True).first()

    @database_sync_to_async
    def _state_frame(self) -> dict[str, Any]:
        return self._state_frame_now()

    def _state_frame_now(self) -> dict[str, Any]:
        game = Game.objects.prefetch_related("seats__user").get(pk=self.game_id)
        return {"type": "state", **selectors.game_view(game, self.user)}
