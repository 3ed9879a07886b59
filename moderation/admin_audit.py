"""The audit log hears the Django admin (accounts never imports moderation): a change of someone's powers,
password or email addresses, of a group's permissions, or a revoked API token is recorded with who made it, for
whom, and the values before and after, in the admin's own transaction. Connected by `ModerationConfig.ready`."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from accounts.signals import privilege_changed, token_revoked

from .models import AuditEntry

REASON = "changed in the Django admin"
ACTIONS = {
    "powers": "admin_privileges_changed",
    "password": "admin_password_set",
    "email": "admin_email_changed",
    "group": "admin_group_changed",
}


@receiver(privilege_changed, dispatch_uid="moderation.audit_privilege_changed")
def audit_privilege_changed(
    sender: Any, *, actor: Any, what: str, user: Any, group: Any, before: dict, after: dict, **_: Any
) -> AuditEntry:
    details: dict[str, Any] = {"before": before, "after": after}
    if group is not None:
        details["group"] = group.name
    return AuditEntry.objects.create(
        moderator=actor, action=ACTIONS[what], reason=REASON, target_user=user, details=details
    )


@receiver(token_revoked, dispatch_uid="moderation.audit_token_revoked")
def audit_token_revoked(sender: Any, *, actor: Any, user: Any, **_: Any) -> AuditEntry:
    return AuditEntry.objects.create(moderator=actor, action="api_token_revoked", reason=REASON, target_user=user)
