"""Ratings in the admin, to read: changes go through ratings.services (a game's effect is voided, never edited)."""

from django.contrib import admin

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("__str__", "mode", "mu", "sigma", "games", "wins", "updated_at")
    list_filter = ("mode", "bot")
    search_fields = ("user__username", "user__display_name")
    readonly_fields = ("user", "bot", "mode", "mu", "sigma", "games", "wins")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "rating", "place", "left", "won", "voided_at")
    list_filter = ("left", "won")
    raw_id_fields = ("game", "rating", "voided_by")

    def has_change_permission(self, request, obj=None) -> bool:
        return False
