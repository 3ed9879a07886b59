"""The site's user: a custom model from the first migration, with profile and notification preferences."""

from __future__ import annotations

import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("Unknown time zone."))


class User(AbstractUser):
    class Language(models.TextChoices):
        ENGLISH = "en", _("English")
        FRENCH = "fr", _("French")

    class Notify(models.TextChoices):
        EACH = "each", _("An email for each event")
        DIGEST = "digest", _("A daily digest")
        NONE = "none", _("No email")

    class NotifyBy(models.TextChoices):
        """Where notices go (games/mail/push.py): email (as `notify` says), push to this account's devices, or both."""

        EMAIL = "email", _("By email")
        PUSH = "push", _("By push notification")
        BOTH = "both", _("By email and push notification")

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(_("preferred language"), max_length=2, choices=Language.choices, default="en")
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC", validators=[validate_time_zone])
    notify = models.CharField(_("notifications"), max_length=8, choices=Notify.choices, default=Notify.EACH)
    notify_by = models.CharField(_("notices by"), max_length=8, choices=NotifyBy.choices, default=NotifyBy.EMAIL)
    quiet_start = models.TimeField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet hours until"), null=True, blank=True)
    digest_hour = models.PositiveSmallIntegerField(
        _("daily digest at (hour, your time)"), default=8, validators=[MinValueValidator(0), MaxValueValidator(23)]
    )
    notify_chat = models.BooleanField(_("email me chat messages in play-by-email games"), default=False)
    # Moderation: a suspended or banned user is inactive (cannot log in, join or move).
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    banned = models.BooleanField(_("banned"), default=False)
    games_abandoned = models.PositiveIntegerField(default=0)  # seats lost to a timeout or a moderator
    # Away from every game by email until then (the profile page, accounts.vacation): their clocks wait.
    vacation_until = models.DateTimeField(_("away from all games by email until"), null=True, blank=True)

    @property
    def is_moderator(self) -> bool:
        return self.is_active and (self.is_superuser or self.has_perm("games.moderate"))

    @property
    def label(self) -> str:
        """The name other players see."""
        return self.display_name or self.username


class SentInvitation(models.Model):
    """One invitation to a game this member sent, by username or by address, counted for their daily cap
    (INVITE_EMAILS_PER_DAY) whether or not a name belonged to anyone (the cap tells nothing about names). Who was
    invited is not kept, and rows older than a day go at the member's next invitation."""

    inviter = models.ForeignKey(User, on_delete=models.CASCADE, related_name="sent_invitations")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["inviter", "created_at"], name="sent_invitation_by_day")]


class ApiToken(Token):
    """An API token as the admin shows it: by its owner, never by its key (anyone who reads a key can act as its
    owner). The admin only lists and revokes them (accounts.admin)."""

    class Meta:
        proxy = True
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return str(_("API token of %(user)s") % {"user": self.user})
