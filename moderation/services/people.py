"""Moderator actions on people: warnings, suspensions (in hours or days), bans and restores. Each is checked
(ranks, recusal, reason), told to the person by email and on the site, and audited in the same transaction; while
a person may not play, a bot keeps their seats (`games.services.interventions`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from games import clocks, outbox
from games.services import interventions
from infra.errors import GameError

from ..models import Sanction
from .common import audit, check_may_sanction, mail, reason_given, require_moderator
from .games import OFFER_BACK_DAYS

RECORD_SALT = "moderation-record"
RECORD_MAX_AGE = 400 * 86400  # a link in a sanction email works longer than the longest suspension
# The longest suspension, in hours (a year); longer is a ban.
MAX_SUSPENSION_HOURS = 365 * 24


def record_link(user) -> str:
    """A signed link to the user's own moderation record, which works without logging in (a suspended
    account cannot)."""
    token = signing.dumps(user.pk, salt=RECORD_SALT)
    return settings.SITE_URL.rstrip("/") + reverse("moderation-record-token", args=[token])


def user_from_record_token(token: str):
    try:
        pk = signing.loads(token, salt=RECORD_SALT, max_age=RECORD_MAX_AGE)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=pk).first()


def appeal_address() -> str:
    return settings.MODERATION_APPEAL_EMAIL


def _tell(sanction: Sanction, *, lobbies: int = 0, offers: int = 0) -> None:
    """The sanctioned person learns it by email, in their language: what, why, until when, how to appeal; the
    waiting games they were taken out of; after a restore, the seats offered back."""
    user = sanction.user
    context = {"sanction": sanction, "link": record_link(user), "appeal": appeal_address()}
    mail(user, "sanction", {**context, "lobbies": lobbies, "offers": offers})


def _tell_lifted(user, offers: int) -> None:
    """A suspension ran out: the person may log in again and take back the seats a bot kept for them."""
    mail(user, "lifted", {"offers": offers, "link": record_link(user)})


def _sanction(
    moderator,
    user,
    kind: str,
    reason: str,
    *,
    note: str = "",
    ends_at=None,
    report=None,
    lobbies: int = 0,
    offers: int = 0,
) -> Sanction:
    sanction = Sanction.objects.create(
        user=user, kind=kind, reason=reason, note=note[:1000], ends_at=ends_at, moderator=moderator, report=report
    )
    _tell(sanction, lobbies=lobbies, offers=offers)
    return sanction


def user_warn(*, moderator, user, reason: str, note: str = "", report=None) -> Sanction:
    require_moderator(moderator)
    check_may_sanction(moderator, user)
    reason = reason_given(reason)
    with transaction.atomic():
        sanction = _sanction(moderator, user, Sanction.Kind.WARNING, reason, note=note, report=report)
        audit(moderator, "user_warned", reason, target_user=user, game=report.game if report else None)
    return sanction


def suspension_hours(days: Any = None, hours: Any = None) -> int | None:
    """A suspension's length in hours, from days or hours (None for a ban: neither given). 1 hour to a year."""
    if days is None and hours is None:
        return None
    if days is not None and hours is not None:
        raise GameError("bad_length", _("Give the suspension in days or in hours, not both."))
    if hours is None:
        if type(days) is not int or not 1 <= days <= 365:
            raise GameError("bad_days", _("Suspend for 1 to 365 days."))
        return days * 24
    if type(hours) is not int or not 1 <= hours <= MAX_SUSPENSION_HOURS:
        raise GameError("bad_hours", _("Suspend for 1 hour to 365 days."))
    return hours


def user_restrict(
    *,
    moderator,
    user,
    reason: str,
    days: int | None = None,
    hours: int | None = None,
    note: str = "",
    report=None,
) -> str:
    """Suspend for `days` or `hours`, or ban (neither given). Sanctions only escalate: a suspension never shortens
    a longer one nor replaces a ban (only an explicit restore lifts a ban). The person can no longer log in, join
    or move; a bot plays their seats meanwhile, their open sockets close, and they are told why, until when and how
    to appeal. Returns what was done: "banned", "suspended", or "unchanged" (already sanctioned as much)."""
    require_moderator(moderator)
    check_may_sanction(moderator, user)
    reason = reason_given(reason)
    length = suspension_hours(days, hours)
    ban = length is None
    with transaction.atomic():
        user = type(user).objects.select_for_update().get(pk=user.pk)
        until = None if ban else clocks.now() + timedelta(hours=length)
        if user.banned or (until is not None and user.suspended_until and user.suspended_until >= until):
            audit(moderator, "sanction_kept", reason, target_user=user, hours=length, banned=user.banned)
            return "unchanged"
        type(user).objects.filter(pk=user.pk).update(is_active=False, banned=ban, suspended_until=until)
        interventions.hold_seats(user)
        lobbies = interventions.leave_lobbies(user)
        kind = Sanction.Kind.BAN if ban else Sanction.Kind.SUSPENSION
        _sanction(moderator, user, kind, reason, note=note, ends_at=until, report=report, lobbies=lobbies)
        length_stated = {} if ban else ({"days": length // 24} if length % 24 == 0 else {"hours": length})
        audit(
            moderator,
            "user_banned" if ban else "user_suspended",
            reason,
            target_user=user,
            **length_stated,
            **({"until": until.isoformat()} if until else {}),
            **({"lobbies": lobbies} if lobbies else {}),
        )
        outbox.user_restricted(user.pk)
    return "banned" if ban else "suspended"


def user_lift(*, moderator, user, reason: str, note: str = "") -> None:
    """Restore: the only way a ban ends. The person's held seats are offered back."""
    require_moderator(moderator)
    check_may_sanction(moderator, user)
    reason = reason_given(reason)
    with transaction.atomic():
        type(user).objects.filter(pk=user.pk).update(is_active=True, banned=False, suspended_until=None)
        offers = interventions.offer_seats_back(user, moderator, OFFER_BACK_DAYS)
        _sanction(moderator, user, Sanction.Kind.RESTORE, reason, note=note, offers=offers)
        audit(moderator, "user_restored", reason, target_user=user, offers=offers)


def lift_expired_suspensions() -> int:
    """Suspensions whose time is over end, and their seats are offered back; bans stay. Beat runs this every 30
    seconds: no suspension lasts a minute longer than given."""
    users = get_user_model().objects
    lifted = 0
    for user in users.filter(banned=False, suspended_until__isnull=False, suspended_until__lte=clocks.now()):
        with transaction.atomic():
            users.filter(pk=user.pk).update(is_active=True, suspended_until=None)
            last = Sanction.objects.filter(user=user, kind=Sanction.Kind.SUSPENSION).first()
            offers = interventions.offer_seats_back(user, last.moderator if last else None, OFFER_BACK_DAYS)
            _tell_lifted(user, offers)
        lifted += 1
    return lifted
