"""The audit log page and a person's own moderation record (with the signed link that works without logging in)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import services as moderation
from .models import AuditEntry, Report, Sanction
from .selectors import audit_entries
from .views import AUDIT_PER_PAGE, _common, _page, moderator_only

AUDIT_DETAIL_LABELS = {
    "days": gettext_lazy("days"),
    "hours": gettext_lazy("hours"),
    "seat": gettext_lazy("seat"),
    "seq": gettext_lazy("move"),
    "previous": gettext_lazy("was"),
    "report": gettext_lazy("report"),
    "message": gettext_lazy("message"),
    "offers": gettext_lazy("seats offered back"),
    "lobbies": gettext_lazy("waiting games left"),
    "duplicate_of": gettext_lazy("closed with report"),
    "deadline": gettext_lazy("new deadline"),
    "deadlines": gettext_lazy("new deadline by seat"),
    "hours_left": gettext_lazy("hours left on resume"),
    "seats_hours_left": gettext_lazy("hours left on resume by seat"),
}


AUDIT_ACTION_LABELS = {
    "game_paused": gettext_lazy("Game paused"),
    "game_active": gettext_lazy("Game resumed"),
    "game_cancelled": gettext_lazy("Game cancelled"),
    "deadline_extended": gettext_lazy("Deadline extended"),
    "seat_replaced": gettext_lazy("Seat given to a bot"),
    "seat_offered": gettext_lazy("Seat offered"),
    "seat_offer_accepted": gettext_lazy("Seat offer accepted"),
    "position_viewed": gettext_lazy("Hidden information viewed"),
    "game_watched": gettext_lazy("Board watched"),
    "user_warned": gettext_lazy("Warned"),
    "user_suspended": gettext_lazy("Suspended"),
    "user_banned": gettext_lazy("Banned"),
    "user_restored": gettext_lazy("Restored"),
    "sanction_kept": gettext_lazy("Sanction kept (no downgrade)"),
    "chat_hidden": gettext_lazy("Message hidden"),
    "chat_shown": gettext_lazy("Message shown again"),
    "report_hide": gettext_lazy("Report: message hidden"),
    "report_warn": gettext_lazy("Report: warned"),
    "report_suspend": gettext_lazy("Report: suspended"),
    "report_ban": gettext_lazy("Report: banned"),
    "report_kept": gettext_lazy("Report: sanction kept (already as strong)"),
    "report_dismiss": gettext_lazy("Report dismissed"),
    "admin_privileges_changed": gettext_lazy("Powers changed in the admin"),
    "admin_group_changed": gettext_lazy("Group changed in the admin"),
    "admin_password_set": gettext_lazy("Password set in the admin"),
    "admin_email_changed": gettext_lazy("Email changed in the admin"),
    "api_token_revoked": gettext_lazy("API token revoked"),
    "rating_voided": gettext_lazy("Rating effect voided"),
}


def audit_details(details: dict[str, Any]) -> str:
    shown = [(AUDIT_DETAIL_LABELS.get(k, k), _detail_value(v)) for k, v in details.items() if v is not None]
    return format_html_join(", ", "{}: {}", shown)


def _detail_value(value: Any) -> str:
    """A detail as a moderator reads it: a moment in their time zone, a value per seat as "seat 1: ..."."""
    if isinstance(value, dict):
        return "; ".join(f"{_('seat')} {key}: {_detail_value(item)}" for key, item in value.items())
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is not None and moment.tzinfo is not None:
        return date_format(timezone.localtime(moment), "DATETIME_FORMAT")
    return str(value)


@moderator_only
def audit_log(request):
    q = request.GET
    page = _page(request, audit_entries(q), AUDIT_PER_PAGE)
    for entry in page:
        entry.details_text = audit_details(entry.details)
        entry.label = AUDIT_ACTION_LABELS.get(entry.action, entry.action)
    codes = AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct()
    actions = [(code, AUDIT_ACTION_LABELS.get(code, code)) for code in codes]
    return render(request, "moderation/audit.html", {**_common(request), "page": page, "q": q, "actions": actions})


def _record(request, target):
    context = {
        "target": target,
        "now": timezone.now(),
        "sanctions": Sanction.objects.filter(user=target),
        "appeal": moderation.appeal_address(),
        "outcomes": Report.objects.filter(reporter=target).exclude(outcome="").select_related("reported_user"),
    }
    return render(request, "moderation/record.html", context)


@login_required
def my_record(request):
    """A person's own record: warnings and sanctions (reason, end, how to appeal) and their reports' outcomes."""
    return _record(request, request.user)


def record_by_token(request, token: str):
    """The same, from the signed link in a sanction email: a suspended account cannot log in to read it."""
    target = moderation.user_from_record_token(token)
    if target is None:
        raise Http404
    return _record(request, target)
