"""The REST API of Web Push (issue 42): the site's public key, a browser's subscription, where notices go."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import URLValidator
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api.schema import error_responses

from ..mail import push
from ..services import notices


class PushKeySerializer(serializers.Serializer):
    public_key = serializers.CharField(allow_blank=True)
    enabled = serializers.BooleanField()


class PushKeysSerializer(serializers.Serializer):
    p256dh = serializers.RegexField(r"^[A-Za-z0-9_-]{80,100}={0,2}$")
    auth = serializers.RegexField(r"^[A-Za-z0-9_-]{16,30}={0,2}$")


class PushSubscriptionSerializer(serializers.Serializer):
    """What a browser's PushSubscription.toJSON() gives."""

    endpoint = serializers.URLField(max_length=1000, validators=[URLValidator(schemes=["https", "http"])])
    keys = PushKeysSerializer()


ENDPOINT_PATTERN = r"^\S{1,1000}$"


class PushEndpointSerializer(serializers.Serializer):
    """Any endpoint may be named: one that is not the user's unsubscribes nothing."""

    endpoint = serializers.RegexField(ENDPOINT_PATTERN)


class UnsubscribedSerializer(serializers.Serializer):
    unsubscribed = serializers.BooleanField()


class NotifyBySerializer(serializers.Serializer):
    notify_by = serializers.ChoiceField(choices=["email", "push", "both"])


class GameNotifyBySerializer(serializers.Serializer):
    notify_by = serializers.ChoiceField(choices=["email", "push", "both", "none", ""])


def _parse(serializer_class, request: Request, data=None) -> dict:
    serializer = serializer_class(data=request.data if data is None else data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class PushKey(APIView):
    """The site's VAPID public key, for PushManager.subscribe's applicationServerKey."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PushKeySerializer})
    def get(self, request: Request) -> Response:
        return Response({"public_key": settings.VAPID_PUBLIC_KEY, "enabled": push.enabled()})


class PushSubscriptions(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PushSubscriptionSerializer, responses={201: None, **error_responses(400, 409)})
    def post(self, request: Request) -> Response:
        data = _parse(PushSubscriptionSerializer, request)
        notices.push_subscribe(
            user=request.user, endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"], auth=data["keys"]["auth"]
        )
        return Response({"subscribed": True}, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "endpoint", str, required=True, pattern=ENDPOINT_PATTERN, description="the subscription's endpoint"
            )
        ],
        responses={200: UnsubscribedSerializer, **error_responses(400)},
    )
    def delete(self, request: Request) -> Response:
        data = _parse(PushEndpointSerializer, request, request.query_params)
        return Response({"unsubscribed": notices.push_unsubscribe(user=request.user, endpoint=data["endpoint"])})


class NotifyBy(APIView):
    """Where the account's notices go: email, push or both."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=NotifyBySerializer, responses={200: NotifyBySerializer, **error_responses(400)})
    def put(self, request: Request) -> Response:
        data = _parse(NotifyBySerializer, request)
        return Response({"notify_by": notices.notify_by_set(user=request.user, notify_by=data["notify_by"])})


class GameNotifyBy(APIView):
    """Where this game's notices go for its player ("": as the account says; "none": no notice of this game)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=GameNotifyBySerializer, responses={200: GameNotifyBySerializer, **error_responses(400, 403)})
    def put(self, request: Request, game_id: int) -> Response:
        data = _parse(GameNotifyBySerializer, request)
        chosen = notices.notify_by_set(user=request.user, notify_by=data["notify_by"], game_id=game_id)
        return Response({"notify_by": chosen})
