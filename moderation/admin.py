"""The Django admin shows the audit log and the reports, and changes neither: the moderation pages are the write
path, and every action there is audited."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import AuditEntry, Report


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Readable by moderators, editable by nobody: the log is append-only."""

    list_display = ("created_at", "moderator", "action", "game", "target_user", "reason")
    list_filter = ("action",)


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "reporter", "reported_user", "game", "status", "reason")
    list_filter = ("status",)
