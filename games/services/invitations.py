"""Inviting someone to a game that has not started: by username (they have an account) or by email address.

The mail goes out after the commit, from a task (outbox), with the game's invite link: a private game opens
with it, a public one anyway. The inviter's answer is the same whether or not a name belongs to a member, and
never shows a member's address.

The mail leaves from the site's own sender, so what the inviter chose in it is held down: inviting by address
needs the inviter's own address confirmed, each member sends at most INVITE_EMAILS_PER_DAY invitations in 24
hours (counted in the database under their row's lock, so requests at the same moment cannot pass it together),
and the game's name appears only as a quoted title, with anything a mail client would make a link of broken."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from allauth.account.utils import has_verified_email
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import SentInvitation
from infra.errors import GameError

from .. import access, clocks, outbox, ratelimit
from ..models import Game
from .lobby import LINK, _lock_player

INVITATION_TASK = "games.invitation_send"


def game_invite(*, game_id: int, user: Any, to: Any) -> str:
    """Invite `to` (a username or an email address) to a waiting game the user sits in. Returns what the inviter
    is told, which never depends on whether a name belongs to someone: a member's address is never shown, and a
    known name, an unknown one and a member without an address get the same answer and count the same against
    the daily cap (names cannot be listed)."""
    ratelimit.check(user, "invites")
    if not isinstance(to, str) or not 1 <= len(to.strip()) <= 254:
        raise GameError("bad_invitee", _("Give a username or an email address."))
    to = to.strip()
    game, _seat = access.player_seat(game_id=game_id, user=user)
    if game.status != Game.Status.WAITING:
        raise GameError("already_started", _("This game has already started."), status=409)
    by_address = _is_address(to)
    if by_address and not has_verified_email(user, user.email):
        raise GameError(
            "email_unconfirmed",
            _("Confirm your own email address (see your profile) before inviting someone by email."),
            status=403,
        )
    with transaction.atomic():
        _lock_player(user)
        _check_daily_cap(user)
        SentInvitation.objects.create(inviter_id=user.pk, created_at=clocks.now())
        invitee = get_user_model().objects.filter(username__iexact=to, is_active=True).first()
        address, language = (invitee.email, invitee.language) if invitee is not None else ("", "")
        if invitee is None and by_address:
            address, language = to, translation.get_language() or settings.LANGUAGE_CODE
        if address:
            outbox.enqueue_after_commit(INVITATION_TASK, (game.pk, address, user.label, language))
    if by_address:
        return _("Invitation sent to %(to)s.") % {"to": to}
    return _("If %(name)s is a player here, they get an invitation by email.") % {"name": to}


def _check_daily_cap(user: Any) -> None:
    """Refuse past the cap; rows older than the day count for nothing and go (a member keeps at most the cap)."""
    cap = settings.INVITE_EMAILS_PER_DAY
    day_ago = clocks.now() - timedelta(days=1)
    SentInvitation.objects.filter(inviter_id=user.pk, created_at__lte=day_ago).delete()
    if SentInvitation.objects.filter(inviter_id=user.pk).count() >= cap:
        raise GameError(
            "invite_limit",
            _("You have sent %(n)s invitations in the last 24 hours, the most allowed: try again later.") % {"n": cap},
            status=429,
        )


def _is_address(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


def unlinked(text: str) -> str:
    """`text` on one line with nothing a mail client would make clickable: `free-gold.example` reads
    `free-gold[.]example` and `http://` reads `http[:]//` (names chosen before links were refused, and players'
    display names)."""
    return LINK.sub(lambda link: link.group(0).replace("://", "[:]//").replace(".", "[.]"), " ".join(text.split()))


def invitation_send(*, game_id: int, address: str, inviter: str, language: str) -> None:
    game = Game.objects.get(pk=game_id)
    link = settings.SITE_URL.rstrip("/") + reverse("game", args=[game.pk]) + f"?invite={game.invite_token}"
    with translation.override(language):
        context = {"title": unlinked(str(game)), "inviter": unlinked(inviter), "link": link}
        subject = " ".join(render_to_string("emails/invitation_subject.txt", context).split())
        text = render_to_string("emails/invitation.txt", context)
    send_mail(subject, text, None, [address])
