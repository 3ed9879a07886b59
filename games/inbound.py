"""Replies by email: an SMTP handler (aiosmtpd) for mail sent to play+<code>@INBOUND_EMAIL_DOMAIN, the reply
address of each notification. The first word of the reply (above any quoted text) is the decision: accept,
reject, roll, end or discard (French words too). Run it with `manage.py mail_inbound`, behind the domain's MX.

Two factors: the reply address (its code, unguessable, names one mail to one player) and the sender, which must
be the address the player has on file (the envelope sender or the From header; case does not matter). A reply
that is refused or not understood gets a short answer saying why (`tell_sender`); a bounce or an automatic reply
gets none, so that two robots never write to each other for ever."""

from __future__ import annotations

import email
import logging
import re
from collections.abc import Iterable
from email.message import Message
from email.policy import default as default_policy
from email.utils import getaddresses
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.mail import send_mail
from django.db import connection
from django.utils import translation
from django.utils.translation import gettext as _

from infra.errors import GameError

from .services.email_actions import decide_from_email, notification_for

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


def first_word(message: Message) -> str | None:
    """The first word of the reply's own text: quoted lines ("> ...") and everything after "On ... wrote:" are
    the email being answered, not the answer. None when the reply has no plain text (HTML only)."""
    part = message.get_body(preferencelist=("plain",)) if hasattr(message, "get_body") else None
    if part is None:
        return None
    for line in part.get_content().splitlines():
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


def senders_of(envelope_sender: str | None, message: Message) -> list[str]:
    """Who sent the reply, as its mail system says (the envelope sender) and as its From header says: lower-case
    addresses, the envelope's first."""
    found = [envelope_sender or ""]
    try:
        found += [address for _name, address in getaddresses([str(h) for h in message.get_all("From", [])])]
    except (TypeError, ValueError, IndexError):  # a From header beyond repair: the envelope alone speaks
        pass
    return [a.strip().lower() for a in found if a and "@" in a]


def answer(code: str, word: str | None, *, senders: Iterable[str]) -> str:
    """Carry out the decision a reply names, if it comes from the player's own address; returns what happened,
    in a word: "played", "wrong_sender", "html_only", "unknown_word", or the code of the error that refused it."""
    try:
        owner = notification_for(code).user
    except GameError as error:
        return error.code
    if not owner.email or owner.email.strip().lower() not in set(senders):
        return "wrong_sender"
    if word is None:
        return "html_only"
    verb = WORDS.get(word)
    if verb is None:
        return "unknown_word"
    try:
        decide_from_email(code=code, verb=verb)
    except GameError as error:
        return error.code
    return "played"


def _why(outcome: str) -> str:
    words = _("accept, reject, roll, end or discard (in French: accepter, refuser, lancer, fin, défausser)")
    reasons = {
        "wrong_sender": _(
            "It did not come from the email address this player has on file, so nothing was played. Reply from "
            "that address, or use the links in the mail."
        ),
        "html_only": _(
            "It had no plain text, so it could not be read, and nothing was played. Send it as plain text, with "
            "one word on the first line: %(words)s."
        )
        % {"words": words},
        "unknown_word": _(
            "It was not understood, and nothing was played. Reply with one word on the first line: %(words)s."
        )
        % {"words": words},
        "already_decided": _("This was already decided: the game has moved on, and nothing was played."),
        "not_found": _("Its address is not (or no longer) a game's reply address, so nothing was played."),
    }
    return reasons.get(outcome, _("The game could not play it, and nothing was played."))


def tell_sender(outcome: str, code: str, senders: list[str]) -> str | None:
    """Answer a refused or misunderstood reply, saying why: to the player's address on file when the reply came
    from it, else to the envelope sender (never naming the player's address). Returns the address written to."""
    owner = None
    try:
        owner = notification_for(code).user
    except GameError:
        pass
    if owner is not None and outcome != "wrong_sender":
        to, language = owner.email, owner.language
    else:
        to, language = (senders[0] if senders else ""), settings.LANGUAGE_CODE
    if not to:
        return None
    with translation.override(language):
        subject = _("Your reply to the game was not played")
        body = _("Hello,\n\nWe received your reply. %(why)s\n") % {"why": _why(outcome)}
    try:
        send_mail(subject, body, None, [to])
    except Exception:
        logger.exception("the answer to a reply (%s) could not be sent", outcome)
        return None
    return to


def _automatic(envelope_sender: str | None, message: Message) -> bool:
    """A bounce (the null envelope sender, `MAIL FROM:<>`) or a robot's mail (RFC 3834 Auto-Submitted, bulk or list
    precedence): never answered."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    bounce = (envelope_sender or "").strip() in ("", "<>")
    return bounce or auto != "no" or precedence in ("bulk", "junk", "list")


def _answer_in_thread(code: str, word: str | None, senders: list[str], automatic: bool) -> str:
    try:
        outcome = answer(code, word, senders=senders)
        if outcome != "played" and not automatic:
            tell_sender(outcome, code, senders)
        return outcome
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
        senders = senders_of(envelope.mail_from, message)
        automatic = _automatic(envelope.mail_from, message)
        for address in envelope.rcpt_tos:
            outcome = await sync_to_async(_answer_in_thread, thread_sensitive=False)(
                code_of(address), word, senders, automatic
            )
            logger.info("reply to %s: %r -> %s", address, word, outcome)
        return "250 OK"
