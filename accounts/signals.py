"""What accounts tells an audit log without knowing it (accounts never imports games or moderation): changes made
in the Django admin to what lets someone act on the site, and revoked API tokens. Both are sent inside the
admin's transaction, so the audit entry a receiver writes is stored with the change or not at all."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with: actor (who made the change); what: "powers" (is_active, is_staff, is_superuser as booleans, groups
# and user_permissions as sorted lists of names), "password" ({"password": "previous"} -> "set" or "disabled"),
# "email" (the account's `email`, or one of its allauth addresses: email, verified, primary) or "group" (a group's
# name and permissions); user (whose account; None for a group), group (the Group, or None); before and after
# (dicts of the fields that changed).
privilege_changed = Signal()
# Sent with: actor (who revoked it), user (whose token it was).
token_revoked = Signal()
