"""Helpers of the moderation tests."""

from __future__ import annotations

from rest_framework.test import APIClient

from moderation.models import AuditEntry


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def last_audit() -> AuditEntry:
    return AuditEntry.objects.order_by("-pk").first()
