"""Signed links in emails: open a game logged in (expires, and works once per login), and unsubscribe."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

LOGIN_SALT = "games.login-link"
UNSUBSCRIBE_SALT = "games.unsubscribe"


def _login_marker(user) -> str:
    # The link stops working once used: logging in changes last_login, which the signature covers.
    return user.last_login.isoformat() if user.last_login else "never"


def login_token(user, game_id: int) -> str:
    return signing.TimestampSigner(salt=LOGIN_SALT).sign_object({"u": user.pk, "g": game_id, "m": _login_marker(user)})


def login_url(user, game_id: int) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("game-login-link", args=[login_token(user, game_id)])


def read_login_token(token: str):
    """(user, game_id) for a valid, unexpired, unused token; raises signing.BadSignature otherwise."""
    from accounts.models import User

    data = signing.TimestampSigner(salt=LOGIN_SALT).unsign_object(token, max_age=settings.LOGIN_LINK_MAX_AGE)
    user = User.objects.filter(pk=data["u"], is_active=True).first()
    if user is None or data["m"] != _login_marker(user):
        raise signing.BadSignature("used or stale link")
    return user, data["g"]


def unsubscribe_url(user) -> str:
    token = signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(user.pk))
    return settings.SITE_URL.rstrip("/") + reverse("unsubscribe", args=[token])


def read_unsubscribe_token(token: str) -> int:
    return int(signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token))
