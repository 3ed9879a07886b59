"""The statistics of a finished game, computed once from its move log and kept: a cache, never a second record
(drop every row and each comes back the same from the moves)."""

from __future__ import annotations

from django.db import models

from games.models import Game


class GameStatistics(models.Model):
    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="statistics")
    seq = models.PositiveIntegerField()  # the number of moves the figures were computed from
    data = models.JSONField()
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "game statistics"

    def __str__(self) -> str:
        return f"statistics of game {self.game_id} at move {self.seq}"
