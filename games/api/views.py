"""The games REST API: everything the game page does, for scripts too (token auth)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import rules
from infra.api.schema import error_responses
from infra.errors import GameError

from .. import access, fairness, selectors, services
from ..models import ChatMessage, Game
from ..services.seats import seat_offers_live
from . import serializers as s


def _parse(serializer_class, request: Request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# The query parameter of every read that a private game's invite link opens.
INVITE = OpenApiParameter(
    "invite", str, required=False, pattern=s.INVITE_PATTERN, description="a private game's invite code"
)


def _visible_game(request: Request, game_id: int) -> Game:
    invite = request.query_params.get("invite")
    if invite is not None and not re.fullmatch(s.INVITE_PATTERN, invite):
        # Checked here, before it is compared with the game's code (compare_digest refuses non-ASCII text).
        raise GameError("bad_invite", _("An invite code has letters, digits, - and _ only."))
    game, _seat = access.game_for_viewer(game_id=game_id, user=request.user, invite=invite)
    return game


class ScenarioList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.ScenariosSerializer})
    def get(self, request: Request) -> Response:
        return Response({"scenarios": rules.scenario_keys()})


class GameList(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: s.GameSummarySerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(s.GameSummarySerializer(selectors.open_public_games()[:100], many=True).data)

    @extend_schema(request=s.GameCreateSerializer, responses={201: s.GameDetailSerializer, **error_responses(409, 429)})
    def post(self, request: Request) -> Response:
        data = _parse(s.GameCreateSerializer, request)
        game = services.game_create(creator=request.user, **data)
        return Response(selectors.game_view(game, request.user), status=status.HTTP_201_CREATED)


class MyGames(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.MyGameSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = selectors.games_for_user(request.user)
        return Response(
            [
                {
                    **s.GameSummarySerializer(r["game"]).data,
                    "your_seat": r["seat"].index,
                    "waiting_on_you": r["waiting_on_me"],
                    "waiting_for": r["waiting_for"],
                    "deadline": r["deadline"].isoformat() if r["deadline"] else None,
                }
                for r in rows
            ]
        )


class GameDetail(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[INVITE],
        responses={200: s.GameDetailSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.game_view(_visible_game(request, game_id), request.user))


class GameJoin(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.JoinSerializer, responses={200: s.GameDetailSerializer, **error_responses(409)})
    def post(self, request: Request, game_id: int) -> Response:
        data = _parse(s.JoinSerializer, request)
        services.seat_join(game_id=game_id, user=request.user, index=data["seat"], invite=data["invite"])
        return Response(selectors.game_view(Game.objects.get(pk=game_id), request.user))


class GameLeave(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameDetailSerializer, **error_responses(409)})
    def post(self, request: Request, game_id: int) -> Response:
        services.seat_leave(game_id=game_id, user=request.user)
        return Response(selectors.game_view(Game.objects.get(pk=game_id), request.user))


class GameInvite(APIView):
    """Before the start, a player invites someone by username or email address; they get the invite link."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.InviteSerializer, responses={200: s.InvitedSerializer, **error_responses(409, 429)})
    def post(self, request: Request, game_id: int) -> Response:
        """Answers {"invited": what was given, "message": ...}, the same for a known and an unknown name."""
        data = _parse(s.InviteSerializer, request)
        message = services.game_invite(game_id=game_id, user=request.user, to=data["to"])
        return Response({"invited": data["to"].strip(), "message": message})


class GameSeatBot(APIView):
    """Before the start, the creator seats a bot of a level in a seat, or opens it again."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.SeatBotSerializer,
        responses={200: s.GameDetailSerializer, **error_responses(409)},
    )
    def post(self, request: Request, game_id: int, index: int) -> Response:
        data = _parse(s.SeatBotSerializer, request)
        services.seat_set_bot(game_id=game_id, user=request.user, index=index, level=data["level"])
        return Response(selectors.game_view(Game.objects.get(pk=game_id), request.user))


class GameStart(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameDetailSerializer, **error_responses(409)})
    def post(self, request: Request, game_id: int) -> Response:
        game = services.game_start(game_id=game_id, user=request.user)
        return Response(selectors.game_view(Game.objects.get(pk=game.pk), request.user))


class GameMoves(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[INVITE, OpenApiParameter("since", int, required=False, description="moves after this move number")],
        responses={200: s.MoveLogSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _visible_game(request, game_id)
        try:
            since = max(0, int(request.query_params.get("since", 0)))
        except ValueError:
            raise GameError("bad_since", _("'since' is a move number.")) from None
        return Response({"seq": game.seq, "moves": selectors.move_log(game, request.user, since)})

    @extend_schema(
        request=s.MoveSerializer,
        responses={200: s.MoveResultSerializer, **error_responses(409, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _parse(s.MoveSerializer, request)
        result = services.move_submit(game_id=game_id, user=request.user, **data)
        game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
        return Response(
            {
                "seq": result.seq,
                "seat": result.seat,
                "duplicate": result.duplicate,
                "events": rules.events_for(result.events, result.seat),
                "game": selectors.game_view(game, request.user),
            }
        )


class GameLog(APIView):
    """After the end: the whole game (seed, commitment, every move's action and events), to check the dice with
    the engine alone: `python -m rules.tools.fairlog log.json`."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(parameters=[INVITE], responses={200: s.GameLogSerializer, **error_responses(409)})
    def get(self, request: Request, game_id: int) -> Response:
        game = _visible_game(request, game_id)
        if not fairness.seed_revealed(game):
            raise GameError("not_finished", _("The log is published when the game ends."), status=409)
        response = Response(fairness.game_log(game))
        response["Content-Disposition"] = f'attachment; filename="catan-game-{game.pk}-log.json"'
        return response


class GameChat(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(parameters=[INVITE], responses={200: s.ChatMessageSerializer(many=True)})
    def get(self, request: Request, game_id: int) -> Response:
        game = _visible_game(request, game_id)
        messages = ChatMessage.objects.filter(game=game).select_related("user").order_by("-created_at")
        if request.user.is_authenticated:
            messages = messages.exclude(user__muted_by__user=request.user)
        return Response(
            [
                {
                    "id": m.pk,
                    "user": m.user.label if m.user else "",
                    "user_id": m.user_id,
                    "text": str(_("Removed by a moderator.")) if m.hidden else m.text,
                    "hidden": m.hidden,
                    "at": m.created_at.isoformat(),
                }
                for m in reversed(messages[:200])
            ]
        )

    @extend_schema(request=s.ChatSerializer, responses={201: s.ChatPostedSerializer, **error_responses(409, 429)})
    def post(self, request: Request, game_id: int) -> Response:
        data = _parse(s.ChatSerializer, request)
        message = services.chat_post(game_id=game_id, user=request.user, text=data["text"])
        return Response({"id": message.pk, "text": message.text}, status=status.HTTP_201_CREATED)


class GameReports(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.ReportSerializer, responses={201: s.ReportCreatedSerializer, **error_responses(409, 429)})
    def post(self, request: Request, game_id: int) -> Response:
        data = _parse(s.ReportSerializer, request)
        report = services.report_create(reporter=request.user, game_id=game_id, **data)
        return Response({"id": report.pk, "status": report.status}, status=status.HTTP_201_CREATED)


class Mutes(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.MuteSerializer, responses={200: s.MuteSerializer, **error_responses(404)})
    def post(self, request: Request) -> Response:
        data = _parse(s.MuteSerializer, request)
        services.mute_set(user=request.user, muted_user_id=data["user_id"], muted=data["muted"])
        return Response({"user_id": data["user_id"], "muted": data["muted"]})


class GameOrders(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.StandingOrdersSerializer, responses={200: s.StandingOrdersSerializer})
    def put(self, request: Request, game_id: int) -> Response:
        orders = _parse(s.StandingOrdersSerializer, request)  # the types; the service judges the orders
        return Response(services.standing_orders_set(game_id=game_id, user=request.user, orders=orders))


class GameVacation(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.VacationSerializer, responses={200: s.VacationStartedSerializer, **error_responses(409)})
    def post(self, request: Request, game_id: int) -> Response:
        data = _parse(s.VacationSerializer, request)
        seat = services.vacation_start(game_id=game_id, user=request.user, days=data["days"])
        return Response({"vacation_until": seat.vacation_until.isoformat()})


class SeatOffers(APIView):
    """Seats a moderator offered you; POST {"offer": id} to take one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.SeatOfferSerializer(many=True)})
    def get(self, request: Request) -> Response:
        offers = seat_offers_live(request.user)
        return Response([{"id": o.pk, "game": o.seat.game_id, "seat": o.seat.index} for o in offers])

    @extend_schema(
        request=s.SeatOfferAcceptSerializer, responses={200: s.SeatTakenSerializer, **error_responses(404, 409, 410)}
    )
    def post(self, request: Request) -> Response:
        offer_id = request.data.get("offer") if isinstance(request.data, dict) else None
        if type(offer_id) is not int:
            raise GameError("bad_offer", "'offer' is an offer id.")
        seat = services.seat_offer_accept(offer_id=offer_id, user=request.user)
        return Response({"game": seat.game_id, "seat": seat.index})
