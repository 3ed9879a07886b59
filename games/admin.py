"""The Django admin shows games, seats, moves and chat, and changes none of them: the moderation
pages are the write path, and every action there is audited. (A status set by hand could finish a running game
and publish its secret dice seed; a chat line edited by hand would rewrite evidence.)"""

from django.contrib import admin

from .models import ChatMessage, Game, Move, Seat


class NoWrites:
    """Neither add, change nor delete: for model admins and inlines alike."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(NoWrites, admin.ModelAdmin):
    pass


class SeatInline(NoWrites, admin.TabularInline):
    model = Seat
    extra = 0
    exclude = ("standing_orders",)


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "name", "scenario", "status", "clock", "seq", "created_at")
    list_filter = ("status", "scenario", "clock", "visibility")
    search_fields = ("name", "seats__user__username")
    inlines = [SeatInline]
    # The secrets stay out of the admin entirely: the dice seed (revealed only by the game's end) and the bots'.
    exclude = ("seed", "bot_secret", "state")


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "seat", "cause", "created_at")


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "text", "hidden", "created_at")
    list_filter = ("hidden",)
