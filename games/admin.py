from django.contrib import admin

from .models import ChatMessage, Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "scenario", "status", "clock", "seq", "created_at")
    list_filter = ("status", "scenario", "clock", "visibility")
    search_fields = ("name", "seats__user__username")
    inlines = [SeatInline]
    readonly_fields = ("state", "seed", "seed_commitment", "seq")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "created_at")
    readonly_fields = [f.name for f in Move._meta.fields]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "text", "hidden", "created_at")
    list_filter = ("hidden",)
