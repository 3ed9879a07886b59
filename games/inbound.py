"""Replies by email: an SMTP handler (aiosmtpd) for mail sent to play+<code>@INBOUND_EMAIL_DOMAIN, the reply
address of each notification. The first word of the reply (above any quoted text) is the decision: accept,
reject, roll, end or discard (French words too). Run it with `manage.py mail_inbound`, behind the domain's MX."""

from __future__ import annotations

import email
import logging
import re
from email.message import Message
from email.policy import default as default_policy
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from .errors import GameError
from .services.email_actions import decide_from_email

logger = logging.getLogger(__name__)

ADDRESS = re.compile(r"^play\+([0-9a-f]{24})@(.+)$", re.IGNORECASE)
WORDS = {
    "accept": "accept",
    "yes": "accept",
    "accepter": "accept",
    "oui": "accept",
    "reject": "reject",
    "no": "reject",
    "refuser": "reject",
    "non": "reject",
    "roll": "roll",
    "lancer": "roll",
    "end": "end",
    "fin": "end",
    "discard": "discard",
    "défausser": "discard",
    "defausser": "discard",
}


def first_word(message: Message) -> str:
    """The first word of the reply's own text: quoted lines ("> ...") and everything after "On ... wrote:" are
    the email being answered, not the answer."""
    part = message.get_body(preferencelist=("plain",)) if hasattr(message, "get_body") else None
    text = part.get_content() if part is not None else ""
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith(">") or re.match(r"^(on|le) .* (wrote|a écrit)\s*:$", line, re.IGNORECASE):
            break
        return line.split()[0].strip(".,!;:").lower()
    return ""


def code_of(address: str) -> str | None:
    match = ADDRESS.match(address.strip())
    if match is None or match.group(2).lower() != settings.INBOUND_EMAIL_DOMAIN.lower():
        return None
    return match.group(1).lower()


def answer(code: str, word: str) -> str:
    """Carry out the decision a reply names; returns what happened, in a word."""
    verb = WORDS.get(word)
    if verb is None:
        return "unknown word"
    try:
        decide_from_email(code=code, verb=verb)
    except GameError as error:
        return error.code
    return "played"


def _answer_in_thread(code: str, word: str) -> str:
    try:
        return answer(code, word)
    finally:
        connection.close()  # this worker thread's own: replies are few, an idle connection would only linger


class InboundHandler:
    """aiosmtpd hooks: refuse mail for any other address, answer each reply once."""

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:  # noqa: N802
        if code_of(address) is None:
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=default_policy)
        word = first_word(message)
        for address in envelope.rcpt_tos:
            outcome = await sync_to_async(_answer_in_thread, thread_sensitive=False)(code_of(address), word)
            logger.info("reply to %s: %r -> %s", address, word, outcome)
        return "250 OK"
