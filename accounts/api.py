"""Account endpoints for scripts: who am I, and a token (behind the site's limits on password guessing)."""

from __future__ import annotations

import hashlib

from allauth.account import app_settings as allauth_settings
from allauth.account.forms import LoginForm
from allauth.account.utils import has_verified_email
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from infra.api.fields import StrictCharField
from infra.api.schema import error_responses

from .clients import client_address
from .tokens import token_for


class LoginAddressThrottle(SimpleRateThrottle):
    """Token requests per client address (the proxy-aware one, never a raw X-Forwarded-For)."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request._request)}


class LoginNameThrottle(SimpleRateThrottle):
    """Token requests per account name, from whatever addresses they come."""

    scope = "login_name"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        data = request.data
        name = str(data.get("username", "")).strip().lower() if hasattr(data, "get") else ""
        if not name:
            return None
        return self.cache_format % {"scope": self.scope, "ident": hashlib.sha256(name.encode()).hexdigest()}


class LoginLocked(exceptions.APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_detail = _("Too many failed login attempts. Try again later.")
    default_code = "too_many_login_attempts"


class EmailUnverified(exceptions.PermissionDenied):
    default_detail = _("Confirm your email address first: open the link in the email we sent you.")
    default_code = "email_unverified"


class CredentialsSerializer(serializers.Serializer):
    username = StrictCharField(max_length=254, help_text="The username or the email address.")
    password = StrictCharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})


class ObtainToken(APIView):
    """A token for scripts. Failed attempts count with the web log-in's (allauth's `login_failed` limits):
    five for one account lock it for everyone for five minutes, ten from one address in a minute stop it."""

    authentication_classes: list = []
    permission_classes: list = []
    throttle_classes = [LoginAddressThrottle, LoginNameThrottle]

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: inline_serializer("TokenResponse", {"token": serializers.CharField()}), **error_responses(403)},
    )
    def post(self, request: Request) -> Response:
        credentials = CredentialsSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        # allauth's own form authenticates: the same credentials, failure counts and lock-out as the web page.
        form = LoginForm(
            data={"login": credentials.validated_data["username"], "password": credentials.validated_data["password"]},
            request=request._request,
        )
        if not form.is_valid():
            if any(error.code == "too_many_login_attempts" for error in form.non_field_errors().as_data()):
                raise LoginLocked()
            raise exceptions.ValidationError(
                {"non_field_errors": [_("Unable to log in with the credentials provided.")]}, code="authorization"
            )
        # The web log-in stops here too: an account whose address is not confirmed cannot use the site yet.
        mandatory = allauth_settings.EMAIL_VERIFICATION == allauth_settings.EmailVerificationMethod.MANDATORY
        if mandatory and not has_verified_email(form.user):
            raise EmailUnverified()
        return Response({"token": token_for(form.user).key})


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    language = serializers.CharField(allow_blank=True)


class Me(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MeSerializer})
    def get(self, request: Request) -> Response:
        user = request.user
        return Response(
            {"id": user.pk, "username": user.username, "display_name": user.label, "language": user.language}
        )
