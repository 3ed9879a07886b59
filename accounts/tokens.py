"""API tokens that expire (API_TOKEN_LIFETIME_DAYS) and die with the password they were obtained with."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


def expired(token: Token) -> bool:
    return token.created + timedelta(days=settings.API_TOKEN_LIFETIME_DAYS) <= timezone.now()


def token_for(user: Any) -> Token:
    """The user's token, a new one if theirs has expired."""
    with transaction.atomic():
        token, created = Token.objects.select_for_update().get_or_create(user=user)
        if not created and expired(token):
            token.delete()
            token = Token.objects.create(user=user)
    return token


class TokenExpired(exceptions.AuthenticationFailed):
    default_detail = _("This token has expired: ask /api/token/ for a new one.")
    default_code = "token_expired"


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if expired(token):
            raise TokenExpired()
        return user, token


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.tokens.rotate")
def drop_tokens_on_password_change(sender: type, instance: Any, **kwargs: Any) -> None:
    """A new password (changed, reset, set by an admin or `changepassword`) ends the tokens of the old one.

    `_password` holds the raw password from set_password() until save() is done with it; Django clears it
    itself for a hash upgrade at log-in, which is not a change of password.
    """
    if getattr(instance, "_password", None) is not None:
        Token.objects.filter(user=instance).delete()
