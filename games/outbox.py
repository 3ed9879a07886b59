"""The one owner of what happens after a commit: each seat's frame, seat changes, chat, bot turns, emails.

Services call these functions inside their transaction; each registers its work with `transaction.on_commit`,
so nothing leaves before the write is durable and nothing leaves for a write that rolled back. Background work
is enqueued by task name (`enqueue`): this module imports neither the tasks nor the services, so after-commit
work never imports back up into the code that called it.

Failures here are logged, never raised: the move is already stored. A lost frame is healed by the client's
resync (it sees a gap in `seq`, or the heartbeat's `seq`), a lost bot task by the bot sweep, a lost email task
by the outbox flusher.

Channel-layer messages are published from the thread that committed (the Redis layer's `publish_now`); with a
layer that cannot (the in-memory one), through an event loop. Inside a socket's own handler, `collecting()`
holds a move's messages, so that they are sent once the move's worker thread is done with it, from that thread
or by the consumer itself (`flush`), never through `async_to_sync`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.db import close_old_connections, transaction
from django.utils import timezone

import rules
from infra import timing

from . import clocks
from .live.frames import chat_payload, everyone_group, seat_clock, seat_map, update_frames, user_group
from .live.pace import bot_delay
from .models import Game, Seat

logger = logging.getLogger(__name__)

BOT_TASK = "games.bot_play"
TURN_TIMEOUT_TASK = "games.turn_timeout"
NOTIFICATION_TASK = "games.notification_send"
# Tasks run in-process (no broker) with no delay run one after another in the thread that queued the first one,
# not nested inside each other: a bot move queues the next bot's turn, which would otherwise recurse per move.
INLINE_LIMIT = 5000
_inline_queue: contextvars.ContextVar[list[tuple[str, tuple]] | None] = contextvars.ContextVar(
    "inline_queue", default=None
)

Message = tuple[str, dict[str, Any]]
_held = threading.local()


# Channel layer -------------------------------------------------------------------------------------------------


def _send_all(messages: list[Message]) -> None:
    """Send every (group, event): from this thread where the layer can (`publish_now`), else in one trip to an
    event loop; or hold them for `flush` when collecting."""
    if not messages:
        return
    held = getattr(_held, "messages", None)
    if held is not None:
        held.extend(messages)
        return
    if publish_now(messages):
        return
    if _loop_running():
        # Synchronous code run by an event loop's thread (a sync library driving its own loop, such as a browser
        # driver, or a script): asgiref refuses to block that loop, so the messages go from a thread of their own.
        sender = threading.Thread(target=_send_all, args=(messages,), name="outbox-send")
        sender.start()
        sender.join()
        return
    try:
        try:
            async_to_sync(flush)(messages)
        except asyncio.CancelledError:
            # The request that stored this move was cancelled (its client went away, say a page reloading while
            # its form was still posting) and asgiref cancels what that request awaits. The move is stored:
            # its frames, and the bot turns that follow in-process, must still happen.
            async_to_sync(flush)(messages)
    except Exception:  # the layer being down must not undo a stored move
        logger.exception("channel layer send failed")


def publish_now(messages: list[Message]) -> bool:
    """Publish these from this (synchronous) thread, if the channel layer can (one Redis server): True when it
    did, failures logged (the move is stored; clients resync); False to send them through an event loop."""
    layer = get_channel_layer()
    if not getattr(layer, "publishes_now", False):
        return False
    for group, event in messages:
        try:
            layer.publish_now(group, _stamped(event))
        except Exception:  # the layer being down must not undo a stored move
            logger.exception("channel layer send failed")
    return True


def _stamped(event: dict[str, Any]) -> dict[str, Any]:
    """The event, with the time it is sent when the servers time moves (the receiving sockets' delivery time)."""
    return {**event, "sent_at": time.time()} if timing.PREFIX else event


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@contextlib.contextmanager
def collecting() -> Iterator[list[Message]]:
    """Hold the messages sent in this thread (after commits included) in the yielded list."""
    previous = getattr(_held, "messages", None)
    held: list[Message] = []
    _held.messages = held
    try:
        yield held
    finally:
        _held.messages = previous


async def flush(messages: list[Message]) -> None:
    """Send what `collecting()` held, from async code."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, event in messages:
        try:
            await layer.group_send(group, _stamped(event))
        except Exception:  # the move is stored; clients resync
            logger.exception("channel layer send failed")


def _publish(group: str, payload: dict[str, Any]) -> None:
    _send_all([(group, {"type": "game.message", "payload": payload})])


# Background work -----------------------------------------------------------------------------------------------


def enqueue(name: str, args: tuple, countdown: float = 0.0) -> None:
    """Queue the task called `name`. With a broker, one publish attempt: a broker outage costs the request no
    retries (the sweeps re-queue what was lost). Without one (`make run`), the task runs in this process: after
    `countdown` in a thread of its own, so a person's request never waits for it, or at once, after the task
    that queued it."""
    app = current_app
    if not app.conf.task_always_eager:
        try:
            app.send_task(name, args=args, countdown=countdown or None, retry=False)
        except Exception:
            logger.warning("could not queue %s%s; a sweep will re-queue it", name, args, exc_info=True)
        return
    if countdown > 0:
        timer = threading.Timer(countdown, _run_in_thread, (name, args))
        timer.daemon = True
        with _timers_lock:
            _timers.add(timer)
        timer.start()
        return
    pending = _inline_queue.get()
    if pending is not None:
        pending.append((name, args))
        return
    _run_inline(name, args)


def _run_in_thread(name: str, args: tuple) -> None:
    try:
        _run_inline(name, args)
    finally:
        close_old_connections()
        with _timers_lock:
            _timers.discard(threading.current_thread())


# Tasks waiting for their countdown in this process (no broker): a timeout can wait hours.
_timers: set[threading.Timer] = set()
_timers_lock = threading.Lock()


def cancel_waiting() -> int:
    """Cancel the in-process tasks still waiting for their countdown, and wait for them to end; how many there
    were. A process that stops (a test, too) leaves no thread behind to run later against a different world."""
    with _timers_lock:
        waiting = list(_timers)
        _timers.clear()
    for timer in waiting:
        timer.cancel()
    for timer in waiting:
        timer.join(timeout=10)
    return len(waiting)


def _task(name: str) -> Any:
    """The registered task called `name`. A web process never imported the task modules (a worker does at start,
    through Celery's autodiscovery): loading them here, by the loader, keeps games/ free of imports of its
    entry points."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


def _run_inline(name: str, args: tuple) -> None:
    pending: list[tuple[str, tuple]] = [(name, args)]
    token = _inline_queue.set(pending)
    try:
        for _count in range(INLINE_LIMIT):
            if not pending:
                break
            task_name, task_args = pending.pop(0)
            try:
                _task(task_name).apply(args=task_args)
            except Exception:
                logger.exception("in-process task %s%s failed", task_name, task_args)
    finally:
        _inline_queue.reset(token)


def enqueue_after_commit(name: str, args: tuple) -> None:
    transaction.on_commit(lambda: enqueue(name, args))


# After a commit ------------------------------------------------------------------------------------------------


def move_committed(
    *,
    game_id: int,
    state: rules.State,
    seq: int,
    events: list[dict[str, Any]],
    user_by_seat: dict[int, int | None],
    bot_due: bool,
    live: bool,
    notification_ids: list[int],
    deadline: datetime | None = None,
    turn_seconds: int | None = None,
    pace: str = "normal",
) -> None:
    """A move (or a start) is being stored: after commit, every socket gets its seat's frame, the next bot its
    turn, the emails their tasks, and a live turn clock its timeout."""

    def after_commit() -> None:
        clock_facts: dict[str, Any] = {
            "deadline": deadline.isoformat() if deadline else None,
            "turn_seconds": turn_seconds,
        }
        if not live:
            # An email game: each seat's deadline and vacation, so that open pages show whose clock runs now.
            active = state.winner is None
            seats = (
                Seat.objects.filter(game_id=game_id)
                .select_related("user")
                .only(
                    "index",
                    "deadline",
                    "bank_seconds",
                    "vacation_until",
                    "account_vacation_waived",
                    "user__vacation_until",
                )
            )
            clock_facts["seat_clocks"] = [seat_clock(seat, active) for seat in seats.order_by("index")]
        frames = update_frames(state, seq, events, clock_facts)
        message = {"type": "game.frames", "seq": seq, "frames": frames, "seats": seat_map(user_by_seat)}
        _send_all([(everyone_group(game_id), message)])
        if bot_due:
            # With the seq it was queued at: a later move's own bot turn supersedes this one (one pace).
            enqueue(BOT_TASK, (game_id, seq), countdown=bot_delay(live, pace))
        if live and deadline is not None:
            _timeout_task(game_id, seq, deadline)
        elif deadline is not None and deadline <= clocks.now():
            # By email, a seat whose time was already spent is due again (its timeout rolled a 7; the others
            # have discarded): the rest of its turn is played now, not at beat's next tick.
            enqueue(TURN_TIMEOUT_TASK, (game_id, seq))
        notifications_due(notification_ids)

    transaction.on_commit(after_commit)


def _timeout_task(game_id: int, seq: int, deadline: datetime) -> None:
    # A little after the deadline, so that the clock has surely run out when the task looks.
    wait = (deadline - timezone.now()).total_seconds() + 0.5
    enqueue(TURN_TIMEOUT_TASK, (game_id, seq), countdown=max(wait, 0.5))


def timeout_at(game_id: int, seq: int, deadline: datetime) -> None:
    """A live turn's deadline moved earlier (its player left): after commit, look again just after it."""
    transaction.on_commit(lambda: _timeout_task(game_id, seq, deadline))


def notifications_due(ids: list[int]) -> None:
    """Hand each due outbox row to a task; the flusher sends those whose time has not come (quiet hours)."""
    for pk in ids:
        enqueue(NOTIFICATION_TASK, (pk,))


def notifications_due_after_commit(ids: list[int]) -> None:
    if ids:
        transaction.on_commit(lambda: notifications_due(ids))


def seats_changed(game_id: int) -> None:
    """Someone took, left or lost a seat: after commit, every socket of the game learns who holds which seat now
    (each then forwards its user's current seat, or the spectators' frame, or closes), and a bot that must act
    now gets its turn."""

    def after_commit() -> None:
        game = Game.objects.filter(pk=game_id).only("status", "clock", "state", "seq", "bot_pace").first()
        if game is None:
            return
        seats = list(Seat.objects.filter(game_id=game_id).values_list("index", "user_id", "bot"))
        payload = {"type": "game.seats", "seats": seat_map({index: user for index, user, _bot in seats})}
        _send_all([(everyone_group(game_id), payload)])
        if game.status == Game.Status.ACTIVE and game.state:
            bots = {index for index, _user, bot in seats if bot}
            if bots & set(rules.to_move(rules.load(game.state))):
                enqueue(
                    BOT_TASK, (game_id, game.seq), countdown=bot_delay(game.clock == Game.Clock.LIVE, game.bot_pace)
                )

    transaction.on_commit(after_commit)


def game_changed(game_id: int) -> None:
    """Lobby changes, pauses, cancellations: open pages reload what they show."""
    transaction.on_commit(lambda: _publish(everyone_group(game_id), {"type": "lobby"}))


def chat_posted(message: Any) -> None:
    transaction.on_commit(lambda: _publish(everyone_group(message.game_id), chat_payload(message)))


def user_restricted(user_id: int) -> None:
    """A moderator suspended or banned this user: their open sockets say so and close."""
    transaction.on_commit(lambda: _send_all([(user_group(user_id), {"type": "user.restricted"})]))


def mutes_changed(user_id: int) -> None:
    """This user muted or unmuted someone: their open sockets reload whom they filter."""
    transaction.on_commit(lambda: _send_all([(user_group(user_id), {"type": "user.mutes"})]))


def chat_hidden(message: Any) -> None:
    """A moderator hid or un-hid a chat line: every open page replaces it (the text travels only when shown)."""
    payload = {
        "type": "chat_hidden",
        "id": message.pk,
        "hidden": message.hidden,
        "text": "" if message.hidden else message.text,
    }
    transaction.on_commit(lambda: _publish(everyone_group(message.game_id), payload))


def clock_resumed(game_id: int, seq: int, deadline: datetime | None, live: bool) -> None:
    """A paused game runs again with its frozen time given back: a live turn clock gets its timeout task."""
    if live and deadline is not None:
        wait = (deadline - timezone.now()).total_seconds() + 0.5
        transaction.on_commit(lambda: enqueue(TURN_TIMEOUT_TASK, (game_id, seq), countdown=max(wait, 0.5)))
