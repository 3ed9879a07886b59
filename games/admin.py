from django.contrib import admin

from .models import AuditEntry, ChatMessage, Game, Move, Report, Seat


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


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Readable by moderators, editable by nobody: the log is append-only."""

    list_display = ("created_at", "moderator", "action", "game", "target_user", "reason")
    list_filter = ("action",)
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "reporter", "reported_user", "game", "status", "reason")
    list_filter = ("status",)
