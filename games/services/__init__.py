"""Every write to games goes through here; views, consumers and tasks only parse and call.

- `lobby`: create a game, take, leave and fill seats, start.
- `moves`: the one road for every move, a person's or one the server makes for a seat (bot, standing order,
  timeout, moderator), with its cause recorded.
- `seats`: who holds a seat once the game runs (a bot takes over, an offered seat is accepted), orders, vacation.
- `bots`: a bot's turn, and the sweep that re-queues lost bot turns.
- `timeouts`: reminders and the timeout policy.
- `chat`: chat, mutes, reports (stored by the app listening to `games.signals`), hiding a line.
- `interventions`: what an outside authority may do to a game (pause, resume, cancel, extend, keep a seat for
  someone, offer a seat); the `moderation` app checks who may, and audits.
"""

from . import email_actions
from .bots import bot_play_once, bots_sweep
from .chat import chat_post, mute_set, report_create
from .invitations import game_invite, invitation_send
from .lobby import game_create, game_start, seat_join, seat_leave, seat_set_bot
from .moves import MAX_ACTION_BYTES, Cause, MoveResult, move_submit, move_submit_for_seat
from .seats import (
    seat_hand_to_bot,
    seat_offer_accept,
    standing_orders_set,
    vacation_end,
    vacation_start,
)
from .timeouts import player_left, tick, tick_all, turn_timeout

__all__ = [
    "email_actions",
    "MAX_ACTION_BYTES",
    "Cause",
    "MoveResult",
    "bot_play_once",
    "bots_sweep",
    "chat_post",
    "game_create",
    "game_invite",
    "invitation_send",
    "game_start",
    "move_submit",
    "move_submit_for_seat",
    "mute_set",
    "player_left",
    "report_create",
    "seat_hand_to_bot",
    "seat_join",
    "seat_leave",
    "seat_offer_accept",
    "seat_set_bot",
    "standing_orders_set",
    "tick",
    "tick_all",
    "turn_timeout",
    "vacation_end",
    "vacation_start",
]
