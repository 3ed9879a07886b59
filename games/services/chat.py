"""Table talk: posting chat, muting a player for oneself, reporting a message or a player."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from .. import access, notifications, outbox, ratelimit
from ..errors import GameError
from ..models import ChatMessage, Move, Mute, Notification, Report, Seat
from .moderation import report_evidence
from .moves import storable

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
                notifications.create_single(game, seat.user, Notification.Kind.CHAT)
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
) -> Report:
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
    return Report.objects.create(
        reporter=reporter, game=game, message=message, reported_user=reported, reason=reason.strip(), **evidence
    )


def _took_part(game, user) -> bool:
    """Whether `user` sits, sat (their moves stay) or wrote in `game`: the only people a player may report there."""
    return (
        Seat.objects.filter(Q(user=user) | Q(held_for=user), game=game).exists()  # held: a bot plays it meanwhile
        or Move.objects.filter(game=game, user=user).exists()
        or ChatMessage.objects.filter(game=game, user=user).exists()
    )
