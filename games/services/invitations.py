"""Inviting someone to a game that has not started: by username (they have an account) or by email address.

The mail goes out after the commit, from a task (outbox), with the game's invite link: a private game opens
with it, a public one anyway. The inviter's answer is the same whether or not a name belongs to a member, and
never shows a member's address."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from .. import access, outbox, ratelimit
from ..errors import GameError
from ..models import Game

INVITATION_TASK = "games.invitation_send"


def game_invite(*, game_id: int, user: Any, to: Any) -> str:
    """Invite `to` (a username or an email address) to a waiting game the user sits in. Returns what the inviter
    is told, which never depends on whether a name belongs to someone: a member's address is never shown, and a
    known name, an unknown one and a member without an address get the same answer (names cannot be listed)."""
    ratelimit.check(user, "invites")
    if not isinstance(to, str) or not 1 <= len(to.strip()) <= 254:
        raise GameError("bad_invitee", _("Give a username or an email address."))
    to = to.strip()
    game, _seat = access.player_seat(game_id=game_id, user=user)
    if game.status != Game.Status.WAITING:
        raise GameError("already_started", _("This game has already started."), status=409)
    invitee = get_user_model().objects.filter(username__iexact=to, is_active=True).first()
    address, language = (invitee.email, invitee.language) if invitee is not None else ("", "")
    if invitee is None and _is_address(to):
        address, language = to, translation.get_language() or settings.LANGUAGE_CODE
    if address:
        outbox.enqueue_after_commit(INVITATION_TASK, (game.pk, address, user.label, language))
    if _is_address(to):
        return _("Invitation sent to %(to)s.") % {"to": to}
    return _("If %(name)s is a player here, they get an invitation by email.") % {"name": to}


def _is_address(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


def invitation_send(*, game_id: int, address: str, inviter: str, language: str) -> None:
    game = Game.objects.get(pk=game_id)
    link = settings.SITE_URL.rstrip("/") + reverse("game", args=[game.pk]) + f"?invite={game.invite_token}"
    with translation.override(language):
        context = {"game": game, "inviter": inviter, "link": link}
        subject = " ".join(render_to_string("emails/invitation_subject.txt", context).split())
        text = render_to_string("emails/invitation.txt", context)
    send_mail(subject, text, None, [address])
