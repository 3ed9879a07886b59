"""The moderation pages: the report queue, games, people and the audit log (403 for anyone else)."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from accounts.models import User

from . import moderation
from .errors import GameError
from .models import AuditEntry, Game, Report


def moderator_only(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not (request.user.is_authenticated and request.user.is_moderator):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def _do(request, action) -> None:
    try:
        action()
        messages.success(request, _("Done, and recorded in the audit log."))
    except GameError as error:
        messages.error(request, error.message)


@moderator_only
def queue(request):
    if request.method == "POST":
        _do(
            request,
            lambda: moderation.report_handle(
                moderator=request.user,
                report_id=int(request.POST.get("report", 0)),
                action=request.POST.get("action", ""),
                reason=request.POST.get("reason", ""),
            ),
        )
        return redirect("moderation")
    reports = Report.objects.filter(status=Report.Status.OPEN).select_related("reported_user", "message", "game")
    return render(request, "moderation/queue.html", {"reports": reports})


@moderator_only
def games(request):
    q = request.GET
    stalled = q.get("stalled_days")
    found = moderation.search_games(
        status=q.get("status", ""),
        scenario=q.get("scenario", ""),
        player=q.get("player", ""),
        stalled_days=int(stalled) if stalled and stalled.isdigit() else None,
    )
    return render(request, "moderation/games.html", {"games": found, "q": q, "statuses": Game.Status.choices})


@moderator_only
def game(request, game_id: int):
    item = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=game_id)
    if request.method == "POST":
        action, reason = request.POST.get("action"), request.POST.get("reason", "")
        statuses = {"cancel": Game.Status.CANCELLED, "pause": Game.Status.PAUSED, "resume": Game.Status.ACTIVE}
        if action in statuses:
            _do(
                request,
                lambda: moderation.game_set_status(
                    moderator=request.user, game_id=game_id, status=statuses[action], reason=reason
                ),
            )
        elif action == "extend":
            _do(
                request,
                lambda: moderation.game_extend_deadline(
                    moderator=request.user, game_id=game_id, hours=int(request.POST.get("hours") or 24), reason=reason
                ),
            )
        elif action == "replace_seat":
            _do(
                request,
                lambda: moderation.seat_replace_with_bot(
                    moderator=request.user,
                    game_id=game_id,
                    seat_index=int(request.POST.get("seat") or 0),
                    reason=reason,
                ),
            )
        return redirect("moderation-game", game_id=game_id)
    position = None
    if item.seed is not None:
        seq = request.GET.get("seq")
        try:
            position = moderation.position(
                moderator=request.user, game_id=game_id, seq=int(seq) if seq and seq.isdigit() else None
            )
        except GameError as error:
            messages.error(request, error.message)
    return render(request, "moderation/game.html", {"game": item, "position": position})


@moderator_only
def person(request, user_id: int):
    target = get_object_or_404(User, pk=user_id)
    if request.method == "POST":
        action, reason = request.POST.get("action"), request.POST.get("reason", "")
        if action == "suspend":
            days = int(request.POST.get("days") or 7)
            _do(
                request, lambda: moderation.user_restrict(moderator=request.user, user=target, reason=reason, days=days)
            )
        elif action == "ban":
            _do(request, lambda: moderation.user_restrict(moderator=request.user, user=target, reason=reason))
        elif action == "restore":
            _do(request, lambda: moderation.user_lift(moderator=request.user, user=target, reason=reason))
        return redirect("moderation-user", user_id=user_id)
    context = {
        "target": target,
        "reliability": moderation.reliability(target),
        "seats": target.seats.select_related("game"),
        "reports": Report.objects.filter(reported_user=target),
    }
    return render(request, "moderation/user.html", context)


@moderator_only
def audit_log(request):
    entries = AuditEntry.objects.select_related("moderator", "target_user", "game")[:500]
    return render(request, "moderation/audit.html", {"entries": entries})
