"""Players' reports and what comes of them: the queue a moderator works (hide, warn, suspend, ban, dismiss, one
by one or in bulk), the outcome told to the reporter, and what the site tells a person once (their sanctions,
their reports' outcomes, seats offered to them)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games import clocks
from games.services import chat
from games.services.seats import seat_offers_live
from infra.errors import GameError

from .. import recusal
from ..models import Report, Sanction
from .common import audit, check_may_sanction, mail, reason_given, require_moderator
from .people import user_restrict, user_warn

REPORT_ACTIONS = ("hide", "warn", "suspend", "ban", "dismiss")


def store(*, reporter: Any, game: Any, message: Any, reported_user: Any, reason: str, evidence: dict) -> Report:
    """A player's report (checked by `games.services.chat.report_create`) joins the queue."""
    return Report.objects.create(
        reporter=reporter, game=game, message=message, reported_user=reported_user, reason=reason, **evidence
    )


def _tell_reporter(report: Report) -> None:
    mail(report.reporter, "outcome", {"report": report})


def report_handle(
    *,
    moderator,
    report_id: int,
    action: str,
    reason: str,
    days: int | None = None,
    hours: int | None = None,
    note: str = "",
) -> Report:
    """Work the queue: hide the message, warn, suspend, ban, or dismiss. A quick action only escalates: it never
    shortens a suspension nor lifts a ban. The reporter is told the outcome."""
    require_moderator(moderator)
    reason = reason_given(reason)
    if action not in REPORT_ACTIONS:
        raise GameError("bad_action", _("Hide, warn, suspend, ban or dismiss."))
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise GameError("not_found", _("No such report."), status=404)
        recusal.check_report(moderator, report)
        if report.status != Report.Status.OPEN:
            raise GameError("handled", _("This report was already handled."), status=409)
        target = report.reported_user
        if action in ("warn", "suspend", "ban"):
            check_may_sanction(moderator, target)
        outcome = action
        if action == "hide":
            if report.message is None:
                raise GameError("no_message", _("This report is about a player, not a message."), status=409)
            chat.set_hidden(report.message_id, True)
        elif action == "warn":
            user_warn(moderator=moderator, user=target, reason=reason, note=note, report=report)
        elif action in ("suspend", "ban"):
            done = user_restrict(
                moderator=moderator,
                user=target,
                reason=reason,
                days=(7 if days is None and hours is None else days) if action == "suspend" else None,
                hours=hours if action == "suspend" else None,
                note=note,
                report=report,
            )
            # What really happened: a sanction at least as strong may have been kept (the reporter reads that).
            outcome = {"banned": "ban", "suspended": "suspend"}.get(done, "kept")
        report.status = Report.Status.DISMISSED if action == "dismiss" else Report.Status.ACTIONED
        report.outcome = outcome
        report.handled_by = moderator
        report.handled_at = clocks.now()
        report.save(update_fields=["status", "outcome", "handled_by", "handled_at"])
        audit(
            moderator,
            _report_audit_action(action, outcome),
            reason,
            game=report.game,
            target_user=target,
            report=report.pk,
        )
        _tell_reporter(report)
    return report


def _report_audit_action(action: str, outcome: str) -> str:
    """The audit entry of a handled report names what was done: a quick suspension of someone already banned
    (or suspended longer) kept that sanction, and says so."""
    return "report_kept" if outcome == "kept" else f"report_{action}"


def reports_handle_many(
    *,
    moderator,
    report_ids: list[int],
    action: str,
    reason: str,
    days: int | None = None,
    hours: int | None = None,
    note: str = "",
) -> int:
    """A bulk action: the same action and reason on each open report chosen; a sanction is applied once per
    person (the reports on one person are closed with it). Returns how many reports were handled."""
    require_moderator(moderator)
    reason = reason_given(reason)
    handled = 0
    sanctioned: dict[int, Report] = {}  # person -> the report their sanction was applied with
    with transaction.atomic():
        reports = Report.objects.filter(pk__in=report_ids, status=Report.Status.OPEN).order_by("pk")
        for report in reports:
            recusal.check_report(moderator, report)
            first = sanctioned.get(report.reported_user_id) if action in ("warn", "suspend", "ban") else None
            if action == "hide" and report.message_id is None:
                continue
            if first is not None:
                # Closed with the sanction already applied: same outcome, and its own audit entry saying so.
                Report.objects.filter(pk=report.pk).update(
                    status=Report.Status.ACTIONED, outcome=first.outcome, handled_by=moderator, handled_at=clocks.now()
                )
                report.outcome = first.outcome
                audit(
                    moderator,
                    _report_audit_action(action, first.outcome),
                    reason,
                    game=report.game,
                    target_user=report.reported_user,
                    report=report.pk,
                    duplicate_of=first.pk,
                )
                _tell_reporter(report)
            else:
                done = report_handle(
                    moderator=moderator,
                    report_id=report.pk,
                    action=action,
                    reason=reason,
                    days=days,
                    hours=hours,
                    note=note,
                )
                sanctioned.setdefault(report.reported_user_id, done)
            handled += 1
    return handled


def notices_unseen(user) -> list[str]:
    """What the site tells this person once: their warnings and sanctions, and the outcome of their reports.
    Marks them seen."""
    if user is None or not user.is_authenticated:
        return []
    now = clocks.now()
    texts = []
    sanctions = Sanction.objects.filter(user=user, seen_at__isnull=True).order_by("created_at")
    for sanction in sanctions:
        texts.append(render_to_string("moderation/_notice.txt", {"sanction": sanction}).strip())
    sanctions.update(seen_at=now)
    outcomes = Report.objects.filter(reporter=user, reporter_seen_at__isnull=True).exclude(outcome="")
    for report in outcomes.select_related("reported_user"):
        texts.append(render_to_string("moderation/_outcome.txt", {"report": report}).strip())
    outcomes.update(reporter_seen_at=now)
    for offer in seat_offers_live(user).filter(expires_at__isnull=False):
        # Told once per offer: the offer has no "seen" column, so the cache remembers it until the offer expires
        # (with the cache down, `add` fails open and the notice shows at each visit: harmless).
        if cache.add(f"seat-offer-told-{offer.pk}", 1, timeout=int((offer.expires_at - now).total_seconds()) + 1):
            context = {"offer": offer, "seat": offer.seat.index + 1, "game": offer.seat.game}
            texts.append(render_to_string("moderation/_offer_notice.txt", context).strip())
    return texts
