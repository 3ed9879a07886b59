"""Input and output shapes of the games API (parsing only; services decide)."""

from __future__ import annotations

from rest_framework import serializers

from ..models import Game, Seat


class GameCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    scenario = serializers.CharField(max_length=40, default="base")
    seat_count = serializers.IntegerField(min_value=2, max_value=6, default=4)
    bot_seats = serializers.ListField(child=serializers.IntegerField(), required=False, default=list, max_length=6)
    bot_level = serializers.ChoiceField(choices=Seat.Bot.choices, default=Seat.Bot.MEDIUM)
    options = serializers.DictField(required=False, default=dict)
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC)
    clock = serializers.ChoiceField(choices=Game.Clock.choices, default=Game.Clock.LIVE)
    move_seconds = serializers.IntegerField(required=False, allow_null=True, default=None)
    turn_seconds = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="Live games: seconds per turn (30-900), or null"
    )


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=5)
    invite = serializers.CharField(required=False, allow_blank=True, default="", max_length=64)


class InviteSerializer(serializers.Serializer):
    to = serializers.CharField(max_length=254, help_text="a username or an email address")


class SeatBotSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=[("", "open"), *Seat.Bot.choices], help_text="'' opens the seat")


class MoveSerializer(serializers.Serializer):
    action = serializers.DictField()
    expected_seq = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)
    idempotency_key = serializers.CharField(required=False, allow_null=True, default=None, max_length=64)


class ChatSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=500)


class SeatSerializer(serializers.ModelSerializer):
    user = serializers.SerializerMethodField()

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


class GameDetailSerializer(serializers.Serializer):
    """The game with the requesting user's view (see games.selectors.game_view)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    scenario = serializers.CharField()
    seat_count = serializers.IntegerField()
    clock = serializers.CharField()
    visibility = serializers.CharField()
    seq = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="revealed at the end; a string (62 bits)")
    seed_salt = serializers.CharField(
        allow_null=True, allow_blank=True, help_text="revealed with the seed: the commitment hashes both"
    )
    deadline = serializers.CharField(allow_null=True)
    timeout_policy = serializers.CharField()
    seats = serializers.ListField(child=serializers.DictField())
    view = serializers.DictField(allow_null=True)
    legal = serializers.ListField(child=serializers.DictField())


class MoveResultSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    duplicate = serializers.BooleanField()
    events = serializers.ListField(child=serializers.DictField())
    game = GameDetailSerializer()


class ErrorSerializer(serializers.Serializer):
    error = serializers.DictField()


class ReportSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
    message_id = serializers.IntegerField(required=False, allow_null=True, default=None)
    user_id = serializers.IntegerField(required=False, allow_null=True, default=None)


class MuteSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    muted = serializers.BooleanField(default=True)


class VacationSerializer(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=30)
