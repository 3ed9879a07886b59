"""Typed schemas of the ratings answers."""

from __future__ import annotations

from rest_framework import serializers


class RatingEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField(allow_null=True, help_text="None for a bot level.")
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True, help_text="The bot level: easy, medium or hard.")
    rating = serializers.FloatField(help_text="mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class LeaderboardSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["live", "async"])
    min_games = serializers.IntegerField(help_text="People need this many rated games to be listed.")
    players = RatingEntrySerializer(many=True)
    bots = RatingEntrySerializer(many=True)


class HistoryEntrySerializer(serializers.Serializer):
    game = serializers.IntegerField()
    name = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)
    place = serializers.IntegerField(help_text="1: first. Those who left share the last place.")
    left = serializers.BooleanField()
    won = serializers.BooleanField()
    before = serializers.FloatField()
    after = serializers.FloatField()


class ModeRatingSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["live", "async"])
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    history = HistoryEntrySerializer(many=True)


class PlayerRatingsSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    ratings = ModeRatingSerializer(many=True)
