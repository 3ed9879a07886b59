"""The moderation API: every endpoint answers 403 to anyone but a moderator."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User

from .. import moderation
from ..models import AuditEntry, Game, Report
from . import serializers as s


class IsModerator(BasePermission):
    message = "Moderators only."

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_moderator)


class ModerationView(APIView):
    permission_classes = [IsModerator]


class GameSearch(ModerationView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        q = request.query_params
        try:
            stalled = int(q["stalled_days"]) if q.get("stalled_days") else None
        except ValueError:
            stalled = None
        games = moderation.search_games(
            status=q.get("status", ""), scenario=q.get("scenario", ""), player=q.get("player", ""), stalled_days=stalled
        )
        return Response([s.GameSummarySerializer(g).data for g in games])


class GameAction(ModerationView):
    @extend_schema(request=s.ModeratorActionSerializer, responses={200: dict})
    def post(self, request: Request, game_id: int) -> Response:
        serializer = s.ModeratorActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        me, action, reason = request.user, data["action"], data["reason"]
        statuses = {"cancel": Game.Status.CANCELLED, "pause": Game.Status.PAUSED, "resume": Game.Status.ACTIVE}
        if action in statuses:
            moderation.game_set_status(moderator=me, game_id=game_id, status=statuses[action], reason=reason)
        elif action == "extend":
            moderation.game_extend_deadline(moderator=me, game_id=game_id, hours=data["hours"], reason=reason)
        elif action == "replace_seat":
            moderation.seat_replace_with_bot(moderator=me, game_id=game_id, seat_index=data["seat"], reason=reason)
        elif action == "offer_seat":
            user = get_object_or_404(User, pk=data["user_id"])
            moderation.seat_offer(moderator=me, game_id=game_id, seat_index=data["seat"], user=user, reason=reason)
        return Response({"ok": True, "status": Game.objects.get(pk=game_id).status})


class GamePosition(ModerationView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, game_id: int) -> Response:
        seq = request.query_params.get("seq")
        try:
            seq_value = int(seq) if seq is not None else None
        except ValueError:
            seq_value = -1
        return Response(moderation.position(moderator=request.user, game_id=game_id, seq=seq_value))


class UserAction(ModerationView):
    @extend_schema(request=s.ModeratorActionSerializer, responses={200: dict})
    def post(self, request: Request, user_id: int) -> Response:
        serializer = s.ModeratorActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = get_object_or_404(User, pk=user_id)
        if data["action"] == "suspend":
            moderation.user_restrict(moderator=request.user, user=user, reason=data["reason"], days=data["days"])
        elif data["action"] == "ban":
            moderation.user_restrict(moderator=request.user, user=user, reason=data["reason"])
        elif data["action"] == "restore":
            moderation.user_lift(moderator=request.user, user=user, reason=data["reason"])
        return Response({"ok": True})

    @extend_schema(responses={200: dict})
    def get(self, request: Request, user_id: int) -> Response:
        user = get_object_or_404(User, pk=user_id)
        return Response(
            {
                "id": user.pk,
                "username": user.username,
                "active": user.is_active,
                "banned": user.banned,
                "suspended_until": user.suspended_until,
                "reliability": moderation.reliability(user),
                "games": list(user.seats.values_list("game_id", flat=True)),
                "reports": list(Report.objects.filter(reported_user=user).values("id", "reason", "status")),
            }
        )


class ReportQueue(ModerationView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        reports = Report.objects.filter(status=Report.Status.OPEN).select_related("message", "reported_user")
        return Response(
            [
                {
                    "id": r.pk,
                    "game": r.game_id,
                    "reported_user": r.reported_user.username,
                    "message": r.message.text if r.message else None,
                    "reason": r.reason,
                }
                for r in reports
            ]
        )


class ReportAction(ModerationView):
    @extend_schema(request=s.ReportActionSerializer, responses={200: dict})
    def post(self, request: Request, report_id: int) -> Response:
        serializer = s.ReportActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        report = moderation.report_handle(moderator=request.user, report_id=report_id, **data)
        return Response({"id": report.pk, "status": report.status})


class AuditLog(ModerationView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response(
            list(
                AuditEntry.objects.values(
                    "id", "moderator__username", "action", "game_id", "target_user__username", "reason", "created_at"
                )[:500]
            )
        )
