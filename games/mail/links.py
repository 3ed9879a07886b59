"""Signed links in emails: open a game logged in, and unsubscribe.

A log-in link opens one game for one user until it expires (LOGIN_LINK_MAX_AGE) or the user's password changes;
another log-in does not spend it (a player reading an old email on another device still lands on the game)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse
from django.utils.crypto import salted_hmac

LOGIN_SALT = "games.login-link"
UNSUBSCRIBE_SALT = "games.unsubscribe"


def _login_marker(user) -> str:
    # A password change or reset ends every link sent before it: the signature covers a digest of the hash.
    return salted_hmac(LOGIN_SALT, user.password).hexdigest()[:16]


def login_token(user, game_id: int) -> str:
    return signing.TimestampSigner(salt=LOGIN_SALT).sign_object({"u": user.pk, "g": game_id, "m": _login_marker(user)})


def login_url(user, game_id: int) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("game-login-link", args=[login_token(user, game_id)])


def read_login_token(token: str):
    """(user, game_id) for a valid, unexpired token; raises signing.BadSignature otherwise."""
    data = signing.TimestampSigner(salt=LOGIN_SALT).unsign_object(token, max_age=settings.LOGIN_LINK_MAX_AGE)
    user = get_user_model().objects.filter(pk=data["u"], is_active=True).first()
    if user is None or data["m"] != _login_marker(user):
        raise signing.BadSignature("used or stale link")
    return user, data["g"]


def unsubscribe_url(user) -> str:
    token = signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(user.pk))
    return settings.SITE_URL.rstrip("/") + reverse("unsubscribe", args=[token])


def read_unsubscribe_token(token: str) -> int:
    return int(signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token))



def action_url(code: str, verb: str) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("email-action", args=[code, verb])


def reply_address(code: str) -> str | None:
    """The address a reply to this email goes to, when the site takes mail in (INBOUND_EMAIL_DOMAIN). The code
    (96 random bits, lower-case hex: mail systems may fold the case of an address) names one notification."""
    if not settings.INBOUND_EMAIL_DOMAIN:
        return None
    return f"play+{code}@{settings.INBOUND_EMAIL_DOMAIN}"
