"""Typed schemas of the statistics and replay answers (drf-spectacular reads them for /api/schema/)."""

from __future__ import annotations

from collections.abc import Callable

from rest_framework import serializers

from rules.constants import DEVELOPMENT_CARDS, RESOURCES
from rules.stats import GAINED, LOST, SPENT


def _counts(name: str, keys: tuple[str, ...], field: Callable[[], serializers.Field]) -> type[serializers.Serializer]:
    """A serializer with one field per key (a resource, a card, a source...), each made by `field`."""
    return type(name, (serializers.Serializer,), {key: field() for key in keys})


ResourceCountsSerializer = _counts("ResourceCounts", RESOURCES, serializers.IntegerField)
DevelopmentCountsSerializer = _counts("DevelopmentCounts", DEVELOPMENT_CARDS, serializers.IntegerField)
GainedSerializer = _counts("ResourcesGained", GAINED, ResourceCountsSerializer)
SpentSerializer = _counts("ResourcesSpent", SPENT, ResourceCountsSerializer)
LostSerializer = _counts("ResourcesLost", LOST, ResourceCountsSerializer)
# Rolls of each sum, keyed "2" to "12".
DiceSerializer = _counts("DiceCounts", tuple(str(n) for n in range(2, 13)), serializers.IntegerField)


class SeatStatisticsSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    gained = GainedSerializer(help_text="Cards gained, by source.")
    spent = SpentSerializer(help_text="Cards spent, by purpose.")
    lost = LostSerializer(help_text="Cards lost, by cause.")
    hand = ResourceCountsSerializer(help_text="The hand at the end: gained - spent - lost, per resource.")
    development_bought = DevelopmentCountsSerializer()
    development_played = DevelopmentCountsSerializer()
    victory_points = serializers.IntegerField()


class PointsAtTurnSerializer(serializers.Serializer):
    turn = serializers.IntegerField(help_text="0: the set-up.")
    move = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField(), help_text="Victory points per seat.")


class HolderChangeSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    move = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="-1: nobody holds it any more.")


class StatisticsSerializer(serializers.Serializer):
    complete = serializers.BooleanField(help_text="False while the game runs: then only the dice are given.")
    players = serializers.IntegerField()
    dice = DiceSerializer()
    moves = serializers.IntegerField(required=False)
    turns = serializers.IntegerField(required=False)
    winner = serializers.IntegerField(required=False, allow_null=True)
    victory_points = PointsAtTurnSerializer(many=True, required=False)
    longest_road = HolderChangeSerializer(many=True, required=False)
    largest_army = HolderChangeSerializer(many=True, required=False)
    seats = SeatStatisticsSerializer(many=True, required=False)


class ReplaySeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)


class LogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    events = serializers.ListField(child=serializers.DictField(), help_text="As the viewer may see them.")


class ReplayStepSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.CharField()
    move = serializers.IntegerField(help_text="The position shown is the one after this move (0: the start).")
    moves = serializers.IntegerField(help_text="Moves in the game so far: the steps are 0 to this.")
    revealed = serializers.BooleanField(help_text="True once the game is over: every seat's cards are shown.")
    viewer = serializers.IntegerField(allow_null=True, help_text="The seat whose view this is (None: all revealed).")
    seats = ReplaySeatSerializer(many=True)
    view = serializers.DictField(help_text="The position, shaped as the live game's view.")
    log = LogEntrySerializer(many=True, help_text="Moves since < seq <= move.")
