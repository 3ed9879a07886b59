"""The statistics and replay steps in the REST API. Errors answer in the site's envelope
({"error": {"code", "message"}}, infra.api.errors); a game the viewer may not see is a JSON 404."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import access
from infra.api.fields import NO_NUL
from infra.api.schema import ErrorSerializer

from .selectors import replay_step
from .serializers import ReplayStepSerializer, StatisticsSerializer
from .stats import statistics_for

INVITE = OpenApiParameter(
    "invite",
    {"type": "string", "pattern": NO_NUL},  # text with a NUL is refused with 400 `bad_text` before any view
    required=False,
    description="A private game's invite token.",
)
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such game, or a private one the viewer may not see.")


class GameStatistics(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A game's statistics",
        description="Everything once the game is over; while it runs, the dice histogram alone (public).",
        parameters=[INVITE],
        responses={200: StatisticsSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, _seat = access.game_for_viewer(
            game_id=game_id, user=request.user, invite=request.query_params.get("invite")
        )
        return Response(statistics_for(game))


class GameReplay(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="One step of a game's replay",
        description=(
            "The position after move `move` (default: the last) and the log of the moves `since` < seq <= `move`. "
            "A finished game shows every seat's cards to whoever may see it; while a game runs, only its players "
            "may step through it, each in their own seat's view."
        ),
        parameters=[
            OpenApiParameter(
                "move",
                {"type": "integer", "minimum": 0},
                required=False,
                description="0 (the start) to the game's move count (past it: 404 `bad_move`).",
            ),
            OpenApiParameter(
                "since",
                {"type": "integer", "minimum": 0},
                required=False,
                description="Log lines after this move only (none when at or past `move`).",
            ),
            INVITE,
        ],
        responses={
            200: ReplayStepSerializer,
            400: OpenApiResponse(ErrorSerializer, description="`bad_move` or `bad_since`: not a whole number."),
            403: OpenApiResponse(ErrorSerializer, description="`not_a_player`: a running game, viewer not seated."),
            404: OpenApiResponse(
                ErrorSerializer,
                description="`not_found`: no such game (or not one the viewer may "
                "see); `bad_move`: a move past the game's end.",
            ),
            409: OpenApiResponse(ErrorSerializer, description="`not_started`: the game has no moves yet."),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        params = request.query_params
        return Response(
            replay_step(
                game_id=game_id,
                user=request.user,
                move=params.get("move"),
                since=params.get("since"),
                invite=params.get("invite"),
            )
        )
