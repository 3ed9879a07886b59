"""Play-by-email and push notices: durable outbox rows written with each move, sent once each.

A row is created in the move's own transaction, so a move is never stored without its notification, even
when Redis or SMTP is down. After commit a Celery task is queued to send it; if queueing fails, the beat
flusher finds the row later. Sending locks the row and skips it if already sent: a retried task never
sends twice. Quiet hours move `send_after`; digest users get one daily mail instead.

This module is the entry points the services, the tasks and the tests call; each lives in the module named for what
it holds: `rows` (writing the rows), `sending` (claiming and sending one, the flusher), `digests`, `rendering` (one
email), `kinds` (what a notice is about), `quiet_hours`; with `holding` (not while at the table) and `push`.
"""

from __future__ import annotations

from .digests import send_digests
from .kinds import DECISION_KINDS
from .rows import create_after_email_decision, create_for_move, create_single
from .sending import MAX_ATTEMPTS, flush, message_id, send

__all__ = [
    "DECISION_KINDS",
    "MAX_ATTEMPTS",
    "create_after_email_decision",
    "create_for_move",
    "create_single",
    "flush",
    "message_id",
    "send",
    "send_digests",
]
