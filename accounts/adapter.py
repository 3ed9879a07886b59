"""allauth's account adapter, with one change: failed log-ins are counted per account, not per spelling."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import filter_users_by_email, filter_users_by_username
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """The key allauth's `login_failed` limit counts under. allauth keys it by the login as typed, so a
        username and the account's email address each had their own five guesses; a login that names exactly
        one account is counted under that account (a password reset clears it through this same key)."""
        email = credentials.get("email")
        users = filter_users_by_email(email) if email else filter_users_by_username(credentials.get("username", ""))
        if len(users) == 1:
            return f"{get_current_site(request).domain}:account:{users[0].pk}"
        return super()._get_login_attempts_cache_key(request, **credentials)
