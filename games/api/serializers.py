"""Input and output shapes of the games API (parsing only; services decide).

Inputs are strict: a field takes its JSON type and no other (`{"text": 0}` is refused, not stored as "0"), so a
request the schema calls invalid is refused with 400. Outputs describe what the views answer, for the schema
(/api/schema/) and the clients generated from it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

import rules
from infra.api.fields import StrictBooleanField, StrictCharField, StrictChoiceField, StrictIntegerField
from rules import state as rules_state
from rules.constants import RESOURCE_INDEX
from rules.trading import MAX_TRADE_CARDS

from ..models import Game, Seat, TimeoutPolicy

# Named once in the schema (SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]), however many fields take them.
SCENARIOS = rules.scenario_keys()
RESOURCES = sorted(RESOURCE_INDEX)
# An invite code (games.models.new_invite_token: URL-safe base64), or "" for none.
INVITE_PATTERN = r"^[A-Za-z0-9_-]*$"
PHASES = [
    rules_state.SETUP_SETTLEMENT,
    rules_state.SETUP_ROAD,
    rules_state.ROLL,
    rules_state.MAIN,
    rules_state.DISCARD,
    rules_state.ROBBER,
    rules_state.ROAD_BUILDING,
    rules_state.GOLD,
    rules_state.PLACE_TOKEN,
    rules_state.GAME_OVER,
]


class GameOptionsSerializer(serializers.Serializer):
    """The rules options of a new game (rules.game.DEFAULT_OPTIONS); each left out takes its default."""

    board = StrictChoiceField(choices=["variable", "beginner"], required=False, help_text="base game")
    random_tokens = StrictBooleanField(required=False, help_text="base game: shuffled tokens, no 6 next to an 8")
    vp_target = StrictIntegerField(
        min_value=3, max_value=30, required=False, allow_null=True, help_text="null: the scenario's"
    )
    seat_order = StrictChoiceField(choices=["random", "fixed"], required=False)
    friendly_robber = StrictBooleanField(required=False)
    pirate = StrictBooleanField(required=False, allow_null=True, help_text="Seafarers; null: where the map has one")
    pirate_steal = StrictChoiceField(choices=["each", "one"], required=False)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict) and (unknown := set(data) - set(self.fields)):
            raise serializers.ValidationError(f"Unknown options: {', '.join(sorted(map(str, unknown)))}.")
        return super().to_internal_value(data)


class GameCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=80, required=False, allow_blank=True, default="")
    scenario = StrictChoiceField(
        choices=SCENARIOS, default="base", help_text="each scenario takes its own numbers of players"
    )
    seat_count = StrictIntegerField(min_value=2, max_value=6, default=4)
    bot_seats = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=5),
        required=False,
        default=list,
        max_length=5,
        help_text="seats (from 1, below seat_count) that bots take; seat 0 is yours",
    )
    bot_level = StrictChoiceField(choices=Seat.Bot.choices, default=Seat.Bot.MEDIUM)
    options = GameOptionsSerializer(required=False, default=dict)
    visibility = StrictChoiceField(choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC)
    clock = StrictChoiceField(choices=Game.Clock.choices, default=Game.Clock.LIVE)
    move_seconds = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        # The server's own shortest (ASYNC_MIN_MOVE_SECONDS, one hour unless lowered for a local run).
        min_value=settings.ASYNC_MIN_MOVE_SECONDS,
        max_value=14 * 86400,
        help_text="Games by email (clock: async): seconds per move, up to 14 days; ignored for live games",
    )
    turn_seconds = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=30,
        max_value=900,
        help_text="Live games: seconds per turn (30-900), or null",
    )


class JoinSerializer(serializers.Serializer):
    seat = StrictIntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=5)
    invite = StrictCharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=64,
        validators=[RegexValidator(INVITE_PATTERN, _("An invite code has letters, digits, - and _ only."))],
    )


class InviteSerializer(serializers.Serializer):
    to = StrictCharField(max_length=254, help_text="a username or an email address")


class SeatBotSerializer(serializers.Serializer):
    level = StrictChoiceField(choices=[("", "open"), *Seat.Bot.choices], help_text="'' opens the seat")


class MoveSerializer(serializers.Serializer):
    action = serializers.DictField(help_text='one of the game\'s "legal" actions, e.g. {"type": "roll"}')
    expected_seq = StrictIntegerField(required=False, allow_null=True, default=None, min_value=0)
    idempotency_key = StrictCharField(required=False, allow_null=True, default=None, max_length=64)


class ChatSerializer(serializers.Serializer):
    text = StrictCharField(max_length=500)


class SeatSerializer(serializers.ModelSerializer):
    user = serializers.SerializerMethodField()
    bot = serializers.CharField(help_text="the bot level, or '' for a person or an open seat")

    class Meta:
        model = Seat
        fields = ["index", "user", "bot"]

    def get_user(self, seat: Seat) -> str | None:
        return seat.user.label if seat.user else None


class GameSummarySerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "name",
            "scenario",
            "seat_count",
            "status",
            "visibility",
            "clock",
            "move_seconds",
            "seats",
            "created_at",
        ]


class MyGameSerializer(GameSummarySerializer):
    """A game of mine, with whose turn it is."""

    your_seat = serializers.IntegerField()
    waiting_on_you = serializers.BooleanField()
    waiting_for = serializers.ListField(child=serializers.CharField(), help_text="who the game waits for")
    deadline = serializers.DateTimeField(allow_null=True)

    class Meta(GameSummarySerializer.Meta):
        fields = [*GameSummarySerializer.Meta.fields, "your_seat", "waiting_on_you", "waiting_for", "deadline"]


class SeatViewSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    user = serializers.CharField(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    vacation_until = serializers.DateTimeField(allow_null=True)


class PlayerViewSerializer(serializers.Serializer):
    """The position as this seat may see it (rules.view): opponents' hands are counts, the deck is hidden.
    Only the phase is described here; the rest is documented in docs/ENGINE.md."""

    phase = serializers.ChoiceField(choices=PHASES)


class GameDetailSerializer(serializers.Serializer):
    """The game with the requesting user's view (see games.selectors.game_view)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    scenario = serializers.CharField()
    seat_count = serializers.IntegerField()
    clock = serializers.ChoiceField(choices=Game.Clock.choices)
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices)
    seq = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField(allow_blank=True)
    seed = serializers.CharField(allow_null=True, help_text="revealed at the end; a string (62 bits)")
    seed_salt = serializers.CharField(
        allow_null=True, allow_blank=True, help_text="revealed with the seed: the commitment hashes both"
    )
    deadline = serializers.DateTimeField(allow_null=True)
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.choices)
    turn_seconds = serializers.IntegerField(allow_null=True)
    seats = SeatViewSerializer(many=True)
    view = PlayerViewSerializer(allow_null=True)
    legal = serializers.ListField(child=serializers.DictField(), help_text="the actions you may play now")
    pause_note = serializers.CharField(required=False, help_text="while a moderator pauses the game: why")


class MoveResultSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    duplicate = serializers.BooleanField()
    events = serializers.ListField(child=serializers.DictField())
    game = GameDetailSerializer()


class MoveLogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    events = serializers.ListField(child=serializers.DictField())


class MoveLogSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the game's current move number")
    moves = MoveLogEntrySerializer(many=True)


class FullMoveSerializer(MoveLogEntrySerializer):
    action = serializers.DictField()


class GameLogSerializer(serializers.Serializer):
    """Everything `python -m rules.tools.fairlog` needs to replay the game and check its dice."""

    game = serializers.IntegerField()
    scenario = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField()
    commitment = serializers.CharField()
    seed = serializers.CharField()
    salt = serializers.CharField(allow_blank=True)
    moves = FullMoveSerializer(many=True)


class ScenariosSerializer(serializers.Serializer):
    scenarios = serializers.ListField(child=serializers.ChoiceField(choices=SCENARIOS))


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.CharField(allow_blank=True)
    user_id = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_blank=True)
    hidden = serializers.BooleanField()
    at = serializers.DateTimeField()


class ChatPostedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()


class ReportSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=500)
    message_id = StrictIntegerField(required=False, allow_null=True, default=None)
    user_id = StrictIntegerField(required=False, allow_null=True, default=None)


class ReportCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()


class MuteSerializer(serializers.Serializer):
    user_id = StrictIntegerField()
    muted = StrictBooleanField(default=True)


class ResourceListField(serializers.ListField):
    child = StrictChoiceField(choices=RESOURCES)


class CardsSerializer(serializers.Serializer):
    """Cards by resource; a resource left out counts 0."""

    brick = StrictIntegerField(min_value=0, max_value=MAX_TRADE_CARDS, required=False)
    lumber = StrictIntegerField(min_value=0, max_value=MAX_TRADE_CARDS, required=False)
    wool = StrictIntegerField(min_value=0, max_value=MAX_TRADE_CARDS, required=False)
    grain = StrictIntegerField(min_value=0, max_value=MAX_TRADE_CARDS, required=False)
    ore = StrictIntegerField(min_value=0, max_value=MAX_TRADE_CARDS, required=False)


class TradeTermsSerializer(serializers.Serializer):
    give = CardsSerializer()
    get = CardsSerializer()


class StandingOrdersSerializer(serializers.Serializer):
    """Decisions played for you while you are away (games/standing_orders.py); the server checks them."""

    discard_priority = ResourceListField(required=False, max_length=10, help_text="discard these first after a 7")
    auto_decline_trades = StrictBooleanField(required=False)
    auto_accept = TradeTermsSerializer(
        required=False, allow_null=True, help_text="accept exactly this trade (cards on both sides)"
    )
    gold_default = ResourceListField(required=False, max_length=10, help_text="gold-field choices, in this order")


class VacationSerializer(serializers.Serializer):
    days = StrictIntegerField(min_value=1, max_value=30)


class VacationStartedSerializer(serializers.Serializer):
    vacation_until = serializers.DateTimeField()


class InvitedSerializer(serializers.Serializer):
    invited = serializers.CharField()
    message = serializers.CharField()


class SeatOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    seat = serializers.IntegerField()


class SeatOfferAcceptSerializer(serializers.Serializer):
    offer = StrictIntegerField(help_text="an offer's id")


class SeatTakenSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
