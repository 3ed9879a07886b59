"""Moderation's records: the append-only audit log, players' reports, and each person's sanctions.

The tables began in `games` (as games_auditentry, games_report, games_sanction); migration 0001 took them over
as they were and 0002 renamed them, so every row is kept."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import ChatMessage, Game


class AuditEntry(models.Model):
    """An append-only record of a moderator action: who, what, when, why. Never edited, never deleted."""

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="audit_entries")
    action = models.CharField(max_length=40)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries")
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_targets"
    )
    reason = models.CharField(max_length=500)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator} {self.action}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise PermissionError("audit entries are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("audit entries are append-only")


class Report(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACTIONED = "actioned", _("Actioned")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    message = models.ForeignKey(ChatMessage, on_delete=models.SET_NULL, null=True, blank=True)
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    reason = models.CharField(max_length=500)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports_handled"
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    # Evidence saved at report time: the message as written, the chat around it, the move number.
    message_text = models.CharField(max_length=500, blank=True)
    context = models.JSONField(default=list, blank=True)
    seq = models.PositiveIntegerField(null=True, blank=True)
    # What the reporter is told (hide, warn, suspend, dismiss), and when they saw it on the site.
    outcome = models.CharField(max_length=10, blank=True)
    reporter_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"report {self.pk} on {self.reported_user_id}"


class Sanction(models.Model):
    """A user's moderation record: warnings, suspensions, bans and restores, with the moderator's private note.
    The user sees each one (reason, end, how to appeal) on the site and by email."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        SUSPENSION = "suspension", _("Suspension")
        BAN = "ban", _("Ban")
        RESTORE = "restore", _("Restored")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    reason = models.CharField(max_length=500)
    note = models.CharField(max_length=1000, blank=True)  # for moderators only
    ends_at = models.DateTimeField(null=True, blank=True)
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions_given")
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
