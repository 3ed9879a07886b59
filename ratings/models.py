"""Ratings: one current rating per person or bot level and mode of play, and one history row per rated seat."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat

from .compute import DEFAULT_MU, DEFAULT_SIGMA, ordinal


class Rating(models.Model):
    """Weng–Lin (OpenSkill, Plackett–Luce) skill of a person, or of a bot level, in one mode of play."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="ratings"
    )
    bot = models.CharField(max_length=12, choices=Seat.Bot.choices, blank=True)
    mode = models.CharField(_("mode"), max_length=8, choices=Game.Clock.choices)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "mode"], condition=Q(user__isnull=False), name="one_rating_per_user"
            ),
            models.UniqueConstraint(fields=["bot", "mode"], condition=~Q(bot=""), name="one_rating_per_bot_level"),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot="")) | (Q(user__isnull=True) & ~Q(bot="")),
                name="rating_of_a_person_or_a_bot_level",
            ),
        ]

    def __str__(self) -> str:
        who = self.user.label if self.user_id else self.get_bot_display()
        return f"{who} ({self.mode}): {self.value:.1f}"

    @property
    def value(self) -> float:
        """The rating shown: mu - 3 sigma, low while the system is still unsure."""
        return ordinal(self.mu, self.sigma)


class RatingChange(models.Model):
    """What one finished game did to one rating (one row per seat it rated), kept for charts and for voiding."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()  # 1: first; ties share a place; those who left share the last
    left = models.BooleanField(default=False)  # the person left the seat before the end: rated last
    won = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "rating"], name="one_rating_change_per_seat"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.before:.1f} -> {self.after:.1f}"

    @property
    def before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return ordinal(self.mu_after, self.sigma_after)

    @property
    def delta(self) -> float:
        return self.after - self.before
