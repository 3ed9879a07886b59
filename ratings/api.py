"""Ratings in the REST API: the leaderboard of a mode, and a person's ratings with their history."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api.schema import ErrorSerializer

from . import selectors
from .serializers import LeaderboardSerializer, PlayerRatingsSerializer


class Leaderboard(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The leaderboard of a mode",
        parameters=[OpenApiParameter("mode", str, enum=list(selectors.MODES), required=False)],
        responses={200: LeaderboardSerializer, 400: OpenApiResponse(ErrorSerializer, description="`bad_mode`")},
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.leaderboard(selectors.check_mode(request.query_params.get("mode"))))


class PlayerRatings(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A person's ratings and their history",
        responses={200: PlayerRatingsSerializer, 404: OpenApiResponse(ErrorSerializer, description="`not_found`")},
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(selectors.player_ratings(selectors.person(username)))
