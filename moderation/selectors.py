"""Reads of moderation shared by its pages and its API."""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import QuerySet

from infra.api.params import whole_number

from .models import AuditEntry


def audit_entries(query: Mapping[str, str]) -> QuerySet[AuditEntry]:
    """The audit log, newest first, filtered by `action`, `moderator` and `person` (usernames, any case) and `game`
    (an id; anything else filters nothing)."""
    entries = AuditEntry.objects.select_related("moderator", "target_user", "game")
    if query.get("action"):
        entries = entries.filter(action=query["action"])
    if query.get("moderator"):
        entries = entries.filter(moderator__username__iexact=query["moderator"])
    if query.get("person"):
        entries = entries.filter(target_user__username__iexact=query["person"])
    game_id = whole_number(query.get("game"))
    if game_id:
        entries = entries.filter(game_id=game_id)
    return entries
