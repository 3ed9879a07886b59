"""Celery tasks: thin wrappers around services. Bots play here, after the humans, with a short delay live."""

from __future__ import annotations

import contextvars
import logging

from celery import shared_task
from django.conf import settings

import rules
from rules.ai import RandomBot, choose_for, move_for

from . import clocks, notifications, services
from .errors import GameError
from .models import Game

logger = logging.getLogger(__name__)

# While a bot loop runs (eagerly, in-process), the moves it makes must not start nested loops.
_bot_loop = contextvars.ContextVar("bot_loop", default=False)


def _bot_seats(game: Game) -> dict[int, str]:
    return {s.index: s.bot for s in game.seats.all() if s.bot}


def schedule_bots(game_id: int, state: rules.State, bots: dict[int, str] | None = None, live: bool = True) -> None:
    """Queue a bot move if a bot must act now (called after each committed move). Callers that know the
    seats pass `bots` and `live`, sparing the queries."""
    if _bot_loop.get() or not rules.to_move(state):
        return
    if bots is None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return
        bots = _bot_seats(game)
        live = game.clock == Game.Clock.LIVE
    if not any(seat in bots for seat in rules.to_move(state)):
        return
    delay = settings.BOT_LIVE_DELAY_SECONDS if live else 0
    bot_play.apply_async((game_id,), countdown=delay)


def bot_move_once(game_id: int) -> bool:
    """Let the first bot that must act make one move. Returns False when no bot had to act."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return False
    state = rules.load(game.state)
    bots = _bot_seats(game)
    seats = [s for s in rules.to_move(state) if s in bots]
    if not seats:
        return False
    seat = seats[0]
    # The bot sees only its seat's view (rules.ai); a hard bot thinks at most BOT_HARD_SECONDS.
    try:
        action = move_for(state, seat, bots[seat], seed=game.seed or 0, time_limit=settings.BOT_HARD_SECONDS)
        services.move_submit(game_id=game_id, bot_seat=seat, action=action, expected_seq=game.seq)
    except GameError as error:
        if error.code == "stale":  # someone else moved first; the next schedule picks it up
            return False
        logger.exception("bot %s of game %s was refused; it plays a random legal move instead", seat, game_id)
        _fallback_move(game_id, game.seq, state, seat)
    except Exception:
        logger.exception("bot %s of game %s failed; it plays a random legal move instead", seat, game_id)
        _fallback_move(game_id, game.seq, state, seat)
    return True


def _fallback_move(game_id: int, seq: int, state: rules.State, seat: int) -> None:
    """A bot that failed must not stall the game: a uniformly random legal move, still chosen from its view."""
    action = choose_for(state, seat, RandomBot(seed=seq))
    try:
        services.move_submit(game_id=game_id, bot_seat=seat, action=action, expected_seq=seq)
    except GameError as error:
        if error.code != "stale":
            raise


@shared_task(name="games.bot_play", bind=True)
def bot_play(self, game_id: int) -> int:
    """Bots move. Eagerly (no broker) they play until a human must act; with a worker, one move per task,
    each next one queued after the delay so live players can follow."""
    # This run's own request says whether it runs in-process; `current_app`'s settings are those of whichever
    # app the thread resolves to (a web server thread once stopped the loop after one move, stalling the game).
    eager = bool(self.request.is_eager)
    moves = 0
    token = _bot_loop.set(True)
    try:
        while bot_move_once(game_id):
            moves += 1
            if not eager or moves >= 5000:
                break
    finally:
        _bot_loop.reset(token)
    if moves and not eager:
        game = Game.objects.get(pk=game_id)
        schedule_bots(game_id, rules.load(game.state))
    return moves


@shared_task(
    name="games.notification_send",
    autoretry_for=(OSError, ConnectionError),
    retry_backoff=30,
    retry_backoff_max=3600,
    max_retries=8,
)
def notification_send(notification_id: int) -> str:
    """Send one outbox row; SMTP failures retry with backoff, and a sent row is never sent again."""
    return notifications.send(notification_id)


@shared_task(name="games.notifications_flush")
def notifications_flush() -> int:
    return notifications.flush()


@shared_task(name="games.notifications_digest")
def notifications_digest() -> int:
    return notifications.send_digests()


@shared_task(name="games.clocks_tick")
def clocks_tick() -> dict[str, int]:
    return clocks.tick_all()
