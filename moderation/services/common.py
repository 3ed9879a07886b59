"""What every moderator action shares: who is a moderator and whom they may sanction (ranks), the reason each
action needs, the append-only audit log, and moderation mail in the reader's language and time zone."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from infra.errors import GameError

from .. import recusal
from ..models import AuditEntry

logger = logging.getLogger(__name__)

MODERATOR_PERMISSIONS = (
    "moderate",
    "view_game",
    "change_game",
    "view_move",
    "view_chatmessage",
    "change_chatmessage",
    "view_report",
    "change_report",
    "view_auditentry",
    "view_user",
)


def moderators_group():
    """The Moderators group with its permissions (created by a migration; recreated here if a test flushed it)."""
    group, created = Group.objects.get_or_create(name="Moderators")
    if created or not group.permissions.exists():
        group.permissions.set(Permission.objects.filter(codename__in=MODERATOR_PERMISSIONS))
    return group


def require_moderator(user) -> None:
    if not (user is not None and user.is_authenticated and user.is_moderator):
        raise GameError("forbidden", _("Moderators only."), status=403)


def _ranked(user) -> bool:
    """Staff, a superuser or a moderator (by a group or their own permission), whether or not the account is
    active now: a suspended moderator is still one."""
    if user.is_staff or user.is_superuser:
        return True
    return Permission.objects.filter(
        Q(user=user) | Q(group__user=user), codename="moderate", content_type__app_label="games"
    ).exists()


def sanction_refusal(moderator, user) -> GameError | None:
    """Why this moderator may not warn, suspend, ban or restore this person, or None. Ranks: only a superuser
    sanctions staff or moderators (a stolen moderator account cannot lock out the administrators), no one
    sanctions themselves, nor someone they play against (`recusal`)."""
    if moderator.pk == user.pk:
        return GameError("own_account", _("No one sanctions their own account."), status=403)
    if not moderator.is_superuser and _ranked(user):
        message = _("Only a superuser can sanction staff or moderators.")
        return GameError("outranked", message, status=403)
    return recusal.opponent_refusal(moderator, user)


def check_may_sanction(moderator, user) -> None:
    refusal = sanction_refusal(moderator, user)
    if refusal is not None:
        raise refusal


def reason_given(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise GameError("reason_required", _("Say why: every moderator action is recorded with its reason."))
    return reason.strip()[:500]


def audit(moderator, action: str, reason: str, *, game=None, target_user=None, **details) -> AuditEntry:
    return AuditEntry.objects.create(
        moderator=moderator, action=action, reason=reason, game=game, target_user=target_user, details=details
    )


def mail_after_commit(subject: str, body: str, to: list[str]) -> None:
    """A moderation notice by email, once the action is stored; a mail outage never undoes it."""

    def after_commit() -> None:
        try:
            send_mail(subject, body, None, to)
        except Exception:
            logger.exception("moderation mail to %s failed", to)

    if to and all(to):
        transaction.on_commit(after_commit)


def mail(user, name: str, context: dict[str, Any]) -> None:
    """A moderation email in the reader's language and time zone, after commit: the templates
    moderation/email_<name>_subject.txt and moderation/email_<name>.txt, with `user` and `games` (My games)."""
    with translation.override(user.language), timezone.override(user.time_zone or "UTC"):
        context = {"user": user, "games": settings.SITE_URL.rstrip("/") + reverse("my-games"), **context}
        subject = render_to_string(f"moderation/email_{name}_subject.txt", context).strip()
        body = render_to_string(f"moderation/email_{name}.txt", context)
    mail_after_commit(subject, body, [user.email])
