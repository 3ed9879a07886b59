"""Every moderator action goes through here; pages, the API and tasks only parse and call.

- `common`: who moderates, ranks, reasons, the audit log, moderation mail.
- `games`: pause, resume, cancel, extend, replace with a bot, offer a seat, hide chat, look into a game.
- `people`: warn, suspend (hours or days), ban, restore, and suspensions running out.
- `reports`: the report queue and what the site tells a person once.
"""

from . import reports
from .common import MODERATOR_PERMISSIONS, audit, moderators_group, require_moderator, sanction_refusal
from .games import (
    OFFER_BACK_DAYS,
    OFFER_HOURS,
    chat_set_hidden,
    first_look,
    game_extend_deadline,
    game_set_status,
    game_void_rating,
    position,
    seat_offer,
    seat_offer_back,
    seat_replace_with_bot,
    watch_audit,
)
from .people import (
    appeal_address,
    lift_expired_suspensions,
    record_link,
    suspension_hours,
    user_from_record_token,
    user_lift,
    user_restrict,
    user_warn,
)
from .reports import REPORT_ACTIONS, notices_unseen, report_handle, reports_handle_many

__all__ = [
    "MODERATOR_PERMISSIONS",
    "OFFER_BACK_DAYS",
    "OFFER_HOURS",
    "REPORT_ACTIONS",
    "reports",
    "appeal_address",
    "audit",
    "chat_set_hidden",
    "first_look",
    "game_extend_deadline",
    "game_set_status",
    "game_void_rating",
    "lift_expired_suspensions",
    "moderators_group",
    "notices_unseen",
    "position",
    "record_link",
    "report_handle",
    "reports_handle_many",
    "require_moderator",
    "sanction_refusal",
    "seat_offer",
    "seat_offer_back",
    "seat_replace_with_bot",
    "suspension_hours",
    "user_from_record_token",
    "user_lift",
    "user_restrict",
    "user_warn",
    "watch_audit",
]
