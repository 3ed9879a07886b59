"""Table talk: posting chat, muting a player for oneself, reporting a message or a player (stored by the
moderation app, which receives `games.signals.report_filed`), and hiding a line from everyone."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from infra.errors import GameError

from .. import access, outbox, ratelimit
from ..mail import notifications
from ..models import ChatMessage, Game, Move, Mute, Notification, Seat
from ..signals import report_filed
from .moves import storable

# The chat lines saved on each side of a reported message.
CONTEXT_LINES = 5
# A report's reason: the column's length, and what the page and the socket client send at most.
MAX_REASON_CHARS = 500


def chat_post(*, game_id: int, user: Any, text: Any) -> ChatMessage:
    ratelimit.check(user, "chat")
    if not isinstance(text, str) or not text.strip():
        raise GameError("empty_message", _("A message cannot be empty."))
    if len(text) > 500:
        raise GameError("message_too_long", _("A message has at most 500 characters."))
    if not storable(text):
        raise GameError("bad_text", _("This message contains characters that cannot be shown."))
    game, _seat = access.player_seat(game_id=game_id, user=user)
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, user=user, text=text.strip())
        for seat in game.seats.all():
            # Play by email: those who asked get one mail for the chat they have not read (not one per line).
            if seat.user is not None and seat.user_id != user.pk and seat.user.notify_chat:
                notifications.create_single(game, seat.user, Notification.Kind.CHAT, seat=seat)
        outbox.chat_posted(message)
    return message


def mute_set(*, user: Any, muted_user_id: Any, muted: bool) -> None:
    target = get_user_model().objects.filter(pk=muted_user_id).first() if type(muted_user_id) is int else None
    if target is None or target.pk == user.pk:
        raise GameError("no_user", _("No such player."), status=404)
    if muted:
        Mute.objects.get_or_create(user=user, muted=target)
    else:
        Mute.objects.filter(user=user, muted=target).delete()
    outbox.mutes_changed(user.pk)


def muted_ids(user: Any) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(Mute.objects.filter(user=user).values_list("muted_id", flat=True))


def report_create(
    *, reporter: Any, game_id: int, reason: Any, message_id: int | None = None, user_id: int | None = None
) -> Any:
    """A player reports a message or another player of their game, with the evidence (the chat around the message
    and the move number). Returns the report the moderation app stored."""
    if not isinstance(reason, str) or not reason.strip():
        raise GameError("reason_required", _("Say what is wrong."))
    if len(reason) > MAX_REASON_CHARS:
        raise GameError("reason_too_long", _("A report's reason has at most 500 characters."))
    if not storable(reason):
        raise GameError("bad_text", _("This message contains characters that cannot be shown."))
    ratelimit.check(reporter, "reports")
    try:
        game, _seat = access.player_seat(game_id=game_id, user=reporter)
    except GameError:
        raise GameError("not_a_player", _("Only players of this game can report."), status=403) from None
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, game=game).first()
        if message is None:
            raise GameError("no_message", _("No such message in this game."), status=404)
        user_id = message.user_id
    reported = get_user_model().objects.filter(pk=user_id).first() if type(user_id) is int else None
    if reported is None or reported.pk == reporter.pk:
        raise GameError("no_user", _("Report a message or another player."))
    if message is None and not _took_part(game, reported):
        raise GameError("not_in_game", _("That person did not play or write in this game."), status=404)
    evidence: dict[str, Any] = {"seq": game.seq}
    if message is not None:
        context, seq = report_evidence(message)
        evidence = {"message_text": message.text, "context": context, "seq": seq}
    with transaction.atomic():
        answers = report_filed.send(
            sender=ChatMessage,
            reporter=reporter,
            game=game,
            message=message,
            reported_user=reported,
            reason=reason.strip(),
            evidence=evidence,
        )
    stored = [report for _receiver, report in answers if report is not None]
    if not stored:
        raise GameError("reports_closed", _("Reports are not taken on this site."), status=503)
    return stored[0]


def report_evidence(message: ChatMessage) -> tuple[list[dict[str, Any]], int]:
    """The chat around a reported message and the move number, saved with the report as evidence."""
    chat = ChatMessage.objects.filter(game_id=message.game_id).select_related("user")
    before = list(chat.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT_LINES])[::-1]
    after = list(chat.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT_LINES])
    lines = [
        {
            "id": m.pk,
            "user": m.user.label if m.user else "",
            "text": m.text,
            "at": m.created_at.isoformat(),
            "reported": m.pk == message.pk,
        }
        for m in [*before, message, *after]
    ]
    seq = Game.objects.filter(pk=message.game_id).values_list("seq", flat=True).first()
    return lines, seq or 0


def set_hidden(message_id: Any, hidden: bool) -> ChatMessage:
    """Hide a chat line from everyone (or show it again), inside the caller's transaction: every open page
    updates at once."""
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first() if type(message_id) is int else None
    if message is None:
        raise GameError("no_message", _("No such message."), status=404)
    message.hidden = hidden
    message.save(update_fields=["hidden"])
    outbox.chat_hidden(message)
    return message


def _took_part(game, user) -> bool:
    """Whether `user` sits, sat (their moves stay) or wrote in `game`: the only people a player may report there."""
    return (
        Seat.objects.filter(Q(user=user) | Q(held_for=user), game=game).exists()  # held: a bot plays it meanwhile
        or Move.objects.filter(game=game, user=user).exists()
        or ChatMessage.objects.filter(game=game, user=user).exists()
    )
