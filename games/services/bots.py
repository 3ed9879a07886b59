"""Bots take their turns: one move per task, through the one road for server moves, never stalling a game.

A bot's turn is queued by the outbox after each committed move that leaves a bot to act (after a visible delay
in live games). If that task is lost (a broker down at commit, a worker killed), `bots_sweep` queues it again:
it runs every few seconds from beat and finds every active game whose bot has waited too long. Playing a bot's
turn twice is harmless: the move carries the sequence number it was decided on, so a second try is stale.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from datetime import timedelta

from django.conf import settings

import rules
from infra import metrics
from infra.errors import GameError
from rules.ai import autoplay

from .. import clocks, outbox, ratelimit
from ..models import Game, Move, Seat
from .moves import Cause, move_submit_for_seat

logger = logging.getLogger(__name__)


def bot_play_once(game_id: int, seq: int | None = None) -> bool:
    """Let the first bot that must act make one move. Returns False when no bot had to act (or another move
    came first). `seq` is the game's sequence number when the turn was queued: once the game has moved on, a
    later move queued its own bot turn, so this one stops at once (two timers would play two chains of bot
    moves, each unpaced against the other). The sweep passes None."""
    game = Game.objects.filter(pk=game_id).only("status", "state", "seq", "bot_secret", "created_by_id").first()
    if game is None or game.status != Game.Status.ACTIVE or (seq is not None and game.seq != seq):
        return False
    state = rules.load(game.state)
    bots = dict(game.seats.exclude(bot="").values_list("index", "bot"))
    seats = [s for s in rules.to_move(state) if s in bots]
    if not seats:
        return False
    seat = seats[0]
    seed = autoplay.bot_seed(game.bot_secret, game.seq, seat)
    try:
        level = bots[seat]
        # Over its creator's share of the bot workers this minute, a hard bot thinks as a medium one (no search):
        # it still moves, and everyone else's games keep their thinking time.
        with ratelimit.bot_thinking(game.created_by_id, hard=level == Seat.Bot.HARD) as search:
            level = Seat.Bot.MEDIUM if level == Seat.Bot.HARD and not search else level
            # The bot sees only its seat's view (rules.ai); a hard bot thinks at most BOT_HARD_SECONDS.
            thinking = time.perf_counter()
            action = autoplay.bot_action(
                state, seat, level, seed=seed, time_limit=settings.BOT_HARD_SECONDS, history=lambda: _events(game_id)
            )
            metrics.BOT_DECISION.labels(level).observe(time.perf_counter() - thinking)
        move_submit_for_seat(game_id=game_id, seat=seat, action=action, cause=Cause.BOT, expected_seq=game.seq)
    except GameError as error:
        if error.code in ("stale", "not_a_player", "not_active"):  # someone moved first, or the seat changed
            return False
        logger.exception("bot %s of game %s was refused; it plays a random legal move instead", seat, game_id)
        return _fallback(game_id, game.seq, state, seat, seed)
    except Exception:
        logger.exception("bot %s of game %s failed; it plays a random legal move instead", seat, game_id)
        return _fallback(game_id, game.seq, state, seat, seed)
    return True


def _events(game_id: int) -> Iterator[list[dict]]:
    """Every move's stored events in order: what a bot's card tracker follows (it skips those its seat may not
    see). Read only for a decision where the bot may open an offer (autoplay.bot_action)."""
    return Move.objects.filter(game_id=game_id).order_by("seq").values_list("events", flat=True).iterator()


def _fallback(game_id: int, seq: int, state: rules.State, seat: int, seed: int) -> bool:
    """A bot that failed must not stall the game: a uniformly random legal move, still chosen from its view."""
    action = autoplay.fallback_action(state, seat, seed=seed)
    try:
        move_submit_for_seat(game_id=game_id, seat=seat, action=action, cause=Cause.BOT, expected_seq=seq)
    except GameError as error:
        if error.code != "stale":
            raise
        return False
    return True


def bots_sweep(*, waited_seconds: float | None = None) -> int:
    """Queue a bot turn for every active game whose bot has had to act for longer than `waited_seconds` with no
    move: its task was lost. Returns how many were queued."""
    waited = settings.BOT_SWEEP_AFTER_SECONDS if waited_seconds is None else waited_seconds
    cutoff = clocks.now() - timedelta(seconds=waited)
    stuck = Game.objects.filter(status=Game.Status.ACTIVE, bot_turn_since__lt=cutoff).values_list("pk", flat=True)
    count = 0
    for game_id in stuck:
        outbox.enqueue(outbox.BOT_TASK, (game_id,))
        count += 1
    return count
