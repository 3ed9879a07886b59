"""The moderation API: every endpoint answers 403 to anyone but a moderator."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games import selectors
from games.api import serializers as s
from games.models import Game
from infra.api.fields import StrictCharField, StrictChoiceField, StrictIntegerField
from infra.api.params import whole_number
from infra.api.schema import error_responses
from infra.errors import GameError

from .. import services as moderation
from ..models import Report, Sanction
from ..selectors import audit_entries
from . import schemas as t

AUDIT_PAGE = 100
REVEAL_VALUES = ("1", "true", "yes")


class IsModerator(BasePermission):
    message = "Moderators only."

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_moderator)


class ModerationView(APIView):
    permission_classes = [IsModerator]


def query_number(query, name: str, minimum: int = 0, maximum: int = 10**6) -> int | None:
    """A whole-number query parameter: None when absent, a 400 `invalid` for anything but a number in range (the
    schema states the range; a century of days at most, past which a date overflows)."""
    if name not in query:
        return None
    value = whole_number(query.get(name), maximum=maximum)
    if value is None or value < minimum:
        message = _("%(name)s is a whole number from %(minimum)s to %(maximum)s.")
        raise GameError("invalid", message % {"name": name, "minimum": minimum, "maximum": maximum})
    return value


GAME_ACTIONS = (
    "cancel",
    "pause",
    "resume",
    "extend",
    "replace_seat",
    "offer_seat",
    "offer_back",
    "hide",
    "show",
    "void_rating",
)
USER_ACTIONS = ("warn", "suspend", "ban", "restore")
REPORT_ACTIONS = tuple(moderation.REPORT_ACTIONS)


class GameActionSerializer(serializers.Serializer):
    action = StrictChoiceField(choices=GAME_ACTIONS)
    reason = StrictCharField(max_length=500)
    hours = StrictIntegerField(required=False, default=24, min_value=1, max_value=24 * 30)
    # Seats count from 1, as the pages show them; a replacement names the player (user_id), never a number.
    seat = StrictIntegerField(required=False, min_value=1, default=None, allow_null=True)
    user_id = StrictIntegerField(required=False, allow_null=True, default=None, min_value=1)
    message_id = StrictIntegerField(required=False, default=None, allow_null=True, min_value=1)


class LengthSerializer(serializers.Serializer):
    """A suspension's length: days or hours (7 days when neither is given), not both."""

    days = StrictIntegerField(required=False, default=None, allow_null=True, min_value=1, max_value=365)
    hours = StrictIntegerField(required=False, default=None, allow_null=True, min_value=1, max_value=365 * 24)
    note = StrictCharField(max_length=1000, required=False, default="", allow_blank=True)


class UserActionSerializer(LengthSerializer):
    action = StrictChoiceField(choices=USER_ACTIONS)
    reason = StrictCharField(max_length=500)


class ReportActionSerializer(LengthSerializer):
    action = StrictChoiceField(choices=REPORT_ACTIONS)
    reason = StrictCharField(max_length=500)


class BulkReportSerializer(ReportActionSerializer):
    reports = serializers.ListField(child=StrictIntegerField(min_value=1), min_length=1, max_length=200)


class GameSearch(ModerationView):
    @extend_schema(parameters=t.GAME_SEARCH_PARAMETERS, responses={200: s.GameSummarySerializer(many=True)})
    def get(self, request: Request) -> Response:
        q = request.query_params
        stalled = query_number(q, "stalled_days", minimum=1, maximum=36500)  # a century: past it, dates overflow
        games = selectors.search_games(
            status=q.get("status", ""), scenario=q.get("scenario", ""), player=q.get("player", ""), stalled_days=stalled
        )
        return Response([s.GameSummarySerializer(g).data for g in games])


class GameAction(ModerationView):
    @extend_schema(request=GameActionSerializer, responses={200: t.GameActionResultSerializer, **error_responses(409)})
    def post(self, request: Request, game_id: int) -> Response:
        serializer = GameActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        me, action, reason = request.user, data["action"], data["reason"]
        seat = data["seat"] - 1 if data["seat"] else None
        statuses = {"cancel": Game.Status.CANCELLED, "pause": Game.Status.PAUSED, "resume": Game.Status.ACTIVE}
        if action in statuses:
            moderation.game_set_status(moderator=me, game_id=game_id, status=statuses[action], reason=reason)
        elif action == "extend":
            moderation.game_extend_deadline(moderator=me, game_id=game_id, hours=data["hours"], reason=reason)
        elif action == "replace_seat":
            moderation.seat_replace_with_bot(moderator=me, game_id=game_id, user_id=data["user_id"], reason=reason)
        elif action == "offer_seat":
            user = get_object_or_404(User, pk=data["user_id"])
            moderation.seat_offer(moderator=me, game_id=game_id, seat_index=seat, user=user, reason=reason)
        elif action == "offer_back":
            moderation.seat_offer_back(moderator=me, game_id=game_id, seat_index=seat, reason=reason)
        elif action == "void_rating":
            moderation.game_void_rating(moderator=me, game_id=game_id, reason=reason)
        else:
            moderation.chat_set_hidden(
                moderator=me, message_id=data["message_id"], hidden=action == "hide", reason=reason, game_id=game_id
            )
        status = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
        return Response({"ok": True, "status": status})


class GamePosition(ModerationView):
    """The position after ?seq= (default: now). Hands, development cards and what each move drew only with
    ?reveal=1 and a ?reason=, recorded in the audit log at each reveal; a moderator who plays in the game (or is
    offered a seat in it) gets 403 `recused`."""

    @extend_schema(parameters=t.POSITION_PARAMETERS, responses={200: t.PositionSerializer})
    def get(self, request: Request, game_id: int) -> Response:
        q = request.query_params
        seq_value = query_number(q, "seq")
        reveal = q.get("reveal", "").lower() in REVEAL_VALUES
        reason = q.get("reason", "") if reveal else None
        position = moderation.position(
            moderator=request.user, game_id=game_id, seq=seq_value, reveal=reveal, reason=reason
        )
        position.pop("moves")
        if not reveal:  # the API has no visit: each look at a private game's board is recorded
            moderation.watch_audit(viewer=request.user, game_id=game_id, session={})
        return Response(position)


def _sanctions(user) -> list[dict]:
    return list(
        Sanction.objects.filter(user=user).values(
            "id", "kind", "reason", "note", "ends_at", "created_at", "moderator__username"
        )
    )


class UserAction(ModerationView):
    @extend_schema(request=UserActionSerializer, responses={200: t.ActionResultSerializer})
    def post(self, request: Request, user_id: int) -> Response:
        serializer = UserActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = get_object_or_404(User, pk=user_id)
        me, reason, note, action = request.user, data["reason"], data["note"], data["action"]
        result = action
        if action == "warn":
            moderation.user_warn(moderator=me, user=user, reason=reason, note=note)
        elif action == "restore":
            moderation.user_lift(moderator=me, user=user, reason=reason, note=note)
        else:
            length = {}
            if action == "suspend":
                length = {"days": data["days"], "hours": data["hours"]}
                if data["days"] is None and data["hours"] is None:
                    length["days"] = 7
            result = moderation.user_restrict(moderator=me, user=user, reason=reason, note=note, **length)
        return Response({"ok": True, "result": result})

    @extend_schema(responses={200: t.PersonSerializer})
    def get(self, request: Request, user_id: int) -> Response:
        user = get_object_or_404(User, pk=user_id)
        return Response(
            {
                "id": user.pk,
                "username": user.username,
                "active": user.is_active,
                "banned": user.banned,
                "suspended_until": user.suspended_until,
                "reliability": selectors.reliability(user),
                "games": list(user.seats.values_list("game_id", flat=True)),
                "reports": list(Report.objects.filter(reported_user=user).values("id", "reason", "status")),
                "sanctions": _sanctions(user),
            }
        )


class ReportQueue(ModerationView):
    @extend_schema(responses={200: t.QueuedReportSerializer(many=True)})
    def get(self, request: Request) -> Response:
        reports = Report.objects.filter(status=Report.Status.OPEN).select_related(
            "message", "reported_user", "reporter"
        )
        now = timezone.now()  # a suspension whose end has passed (not yet lifted by beat) is over
        return Response(
            [
                {
                    "id": r.pk,
                    "game": r.game_id,
                    "reporter": r.reporter.username,
                    "created_at": r.created_at,
                    "reported_user": r.reported_user.username,
                    "reported_user_status": "banned"
                    if r.reported_user.banned
                    else (
                        "suspended"
                        if r.reported_user.suspended_until and r.reported_user.suspended_until > now
                        else "active"
                    ),
                    "message": r.message_text or (r.message.text if r.message else None),
                    "context": r.context,
                    "seq": r.seq,
                    "reason": r.reason,
                }
                for r in reports
            ]
        )


class ReportAction(ModerationView):
    @extend_schema(request=ReportActionSerializer, responses={200: t.ReportResultSerializer, **error_responses(409)})
    def post(self, request: Request, report_id: int) -> Response:
        serializer = ReportActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        report = moderation.report_handle(moderator=request.user, report_id=report_id, **serializer.validated_data)
        return Response({"id": report.pk, "status": report.status})


class ReportBulk(ModerationView):
    @extend_schema(request=BulkReportSerializer, responses={200: t.BulkResultSerializer})
    def post(self, request: Request) -> Response:
        serializer = BulkReportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        handled = moderation.reports_handle_many(
            moderator=request.user,
            report_ids=data["reports"],
            action=data["action"],
            reason=data["reason"],
            days=data["days"],
            hours=data["hours"],
            note=data["note"],
        )
        return Response({"handled": handled})


class AuditLog(ModerationView):
    """The audit log, newest first, a page at a time (?page=), filtered by ?action=, ?game=, ?moderator=,
    ?person= (the person acted on, by username)."""

    @extend_schema(parameters=t.AUDIT_PARAMETERS, responses={200: t.AuditPageSerializer})
    def get(self, request: Request) -> Response:
        q = request.query_params
        query_number(q, "game", minimum=1)  # checked here; the page's filter ignores a bad one
        page = Paginator(
            audit_entries(q).values(
                "id",
                "moderator__username",
                "action",
                "game_id",
                "target_user__username",
                "reason",
                "details",
                "created_at",
            ),
            AUDIT_PAGE,
        ).get_page(query_number(q, "page", minimum=1) or 1)
        return Response(
            {
                "count": page.paginator.count,
                "page": page.number,
                "pages": page.paginator.num_pages,
                "results": list(page),
            }
        )
