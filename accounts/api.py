"""Account endpoints for scripts: who am I, and a token (throttled against password guessing)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView


class LoginThrottle(AnonRateThrottle):
    rate = "10/min"


class ObtainToken(ObtainAuthToken):
    throttle_classes = [LoginThrottle]


class Me(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        user = request.user
        return Response(
            {"id": user.pk, "username": user.username, "display_name": user.label, "language": user.language}
        )
