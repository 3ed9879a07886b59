"""One notice's email: subject, text and HTML in its reader's language, the decision and its one-click links, what
happened since the reader's last turn, and the board as a PNG picture."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Max, Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

import rules
from rules.ai.autoplay import offered_verbs
from rules.svg import board_svg

from .. import clocks
from ..models import Notification
from .kinds import DECISION_KINDS, VERB_LABELS
from .links import action_url, login_url, reply_address, unsubscribe_url
from .summaries import decision, seat_names, since_last_turn, timed_out


def unsubscribe_headers(user) -> dict[str, str]:
    """RFC 2369 and RFC 8058: mail clients offer an unsubscribe button that POSTs to the link in one click."""
    return {"List-Unsubscribe": f"<{unsubscribe_url(user)}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def _decision(view: dict, kind: str, names: dict[int, str]) -> str:
    if kind == Notification.Kind.TURN and view.get("current") == view["viewer"] and view["phase"] == "main":
        if view.get("dice"):  # rolled from an email: the rest of the turn is theirs
            return str(_("You rolled %(n)s: now build or end your turn.") % {"n": sum(view["dice"])})
    return decision(view, kind, names)


def seat_deadline(seat, state: rules.State) -> datetime | None:
    """The reader's own deadline (each seat has its own: discards, trade replies), or None when that seat owes
    nothing now (a "game started" mail to someone who moves later, a timeout already played out)."""
    if seat is None or state.phase == "game_over" or seat.index not in rules.to_move(state):
        return None
    return seat.deadline


def emailed_up_to(notification: Notification) -> int:
    """The last move the other emails to this reader about this game told them of (each tells up to its own row's
    move): those sent, and those being sent now. 0 before the first; digests list games, not moves."""
    now = clocks.now()
    others = (
        Notification.objects.filter(game_id=notification.game_id, user_id=notification.user_id, digest=False)
        .filter(Q(sent_at__isnull=False) | Q(claimed_until__gt=now, dropped_at__isnull=True))
        .exclude(pk=notification.pk)
    )
    return others.aggregate(seq=Max("seq"))["seq"] or 0


def render(notification: Notification) -> EmailMultiAlternatives:
    game = notification.game
    user = notification.user
    # A timeout may have handed the seat to a bot ("replace"): the mail then says so without a private view.
    seat = game.seats.filter(user=user).first()
    index = seat.index if seat is not None else None
    state = rules.load(game.state)
    with translation.override(user.language):
        view = rules.view(state, index)
        names = seat_names(game)
        # Each email tells what happened up to its own move, from where the earlier emails to its reader stopped.
        upto, after = notification.seq, emailed_up_to(notification)
        timed_out_lines, timed_out_seqs = timed_out(game, index, after, upto, names)
        chat = []
        if notification.kind == Notification.Kind.CHAT:
            recent = game.chat.filter(hidden=False).exclude(user=user).select_related("user").order_by("-created_at")
            chat = [f"{m.user.label if m.user else '?'}: {m.text}" for m in reversed(recent[:10])]
        actions = []
        if index is not None and notification.seq == game.seq and notification.kind in DECISION_KINDS:
            actions = [(VERB_LABELS[v], action_url(notification.action_code, v)) for v in offered_verbs(state, index)]
        context = {
            "actions": actions,
            "reply_to": reply_address(notification.action_code) if actions else None,
            "user": user,
            "game": game,
            "kind": notification.get_kind_display(),
            "decision": _decision(view, notification.kind, names),
            "timed_out": timed_out_lines,
            "chat": chat,
            "lines": since_last_turn(game, index, names, after, upto, timed_out_seqs) if index is not None else [],
            "link": login_url(user, game.pk),
            "unsubscribe": unsubscribe_url(user),
            "deadline": seat_deadline(seat, state),
            "time_zone": user.time_zone or "UTC",
            "site": settings.SITE_URL,
        }
        subject = " ".join(render_to_string("emails/notification_subject.txt", context).split())
        text = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    reply_to = [context["reply_to"]] if context["reply_to"] else None
    message = EmailMultiAlternatives(
        subject, text, to=[user.email], headers=unsubscribe_headers(user), reply_to=reply_to
    )
    message.attach_alternative(html, "text/html")
    svg = board_svg(view["board"], view["pieces"])
    # Most mail clients show no SVG: the board goes as a picture they all show. cairosvg is imported here, where
    # it is used: at the module's top it cost every web server a quarter of a second at start.
    import cairosvg

    message.attach("board.png", cairosvg.svg2png(bytestring=svg.encode(), output_width=600), "image/png")
    return message
