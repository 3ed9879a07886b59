"""Accounts in the Django admin. What lets someone act on the site may change here, and every such change is
announced (`accounts.signals.privilege_changed`, inside the admin's transaction) for the audit log to record who
changed what, for whom, before and after:

- a person's powers: active, staff, superuser, groups (such as Moderators), their own permissions;
- a group's permissions (the powers of all its members);
- what signs a person in: their password, and their email addresses (a verified or primary address receives
  their password resets; the account's own `email` too).

API tokens are only listed and revoked (audited): minting one for someone else would let staff act in their
name, so there is no adding or editing, and the key (which is the token) is never shown."""

from __future__ import annotations

from typing import Any

from allauth.account.admin import EmailAddressAdmin
from allauth.account.models import EmailAddress
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.db import transaction
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from .models import ApiToken, User
from .signals import privilege_changed, token_revoked

FLAGS = ("is_active", "is_staff", "is_superuser")
NO_ADDRESS = {"email": None, "verified": False, "primary": False}


def _permission_names(permissions: Any) -> list[str]:
    return sorted(
        f"{app}.{codename}" for app, codename in permissions.values_list("content_type__app_label", "codename")
    )


def _changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    changed = [key for key in after if before.get(key) != after[key]]
    return {key: before.get(key) for key in changed}, {key: after[key] for key in changed}


def _announce(request: Any, what: str, user: Any, before: dict, after: dict, group: Any = None) -> None:
    before, after = _changes(before, after)
    if after:
        privilege_changed.send(
            sender=User, actor=request.user, what=what, user=user, group=group, before=before, after=after
        )


class Audited:
    """Reads what is stored before the admin saves a form (by then the form has written its values onto the
    object), and announces what changed once the form's many-to-many fields (groups, permissions) are saved too.
    `stored(obj)` gives {what: {field: value}} as the database holds it; `subject(obj)` the (user, group)."""

    def stored(self, obj: Any) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    def subject(self, obj: Any) -> tuple[Any, Any]:
        raise NotImplementedError

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        obj._stored_before = self.stored(obj)
        super().save_model(request, obj, form, change)

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        obj = form.instance
        before = obj.__dict__.pop("_stored_before", {})
        user, group = self.subject(obj)
        for what, now in self.stored(obj).items():
            _announce(request, what, user, before.get(what, {}), now, group)


@admin.register(User)
class SiteUserAdmin(Audited, UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Profile", {"fields": ("display_name", "language", "time_zone", "notify", "quiet_start", "quiet_end")}),
    )
    list_display = ("username", "email", "display_name", "language", "is_staff", "is_active")

    def stored(self, obj: Any) -> dict[str, dict[str, Any]]:
        if obj.pk is None:
            powers = {"is_active": True, "is_staff": False, "is_superuser": False, "groups": [], "user_permissions": []}
            return {"powers": powers, "email": {"email": ""}}
        user = User.objects.get(pk=obj.pk)
        powers = {
            **{flag: getattr(user, flag) for flag in FLAGS},
            "groups": sorted(user.groups.values_list("name", flat=True)),
            "user_permissions": _permission_names(user.user_permissions),
        }
        return {"powers": powers, "email": {"email": user.email}}

    def subject(self, obj: Any) -> tuple[Any, Any]:
        return obj, None

    def user_change_password(self, request: Any, id: str, form_url: str = "") -> Any:
        """Whoever sets someone's password here can log in as them: announced like a change of powers."""
        with transaction.atomic():
            user = self.get_object(request, unquote(id))
            response = super().user_change_password(request, id, form_url)
            stored = User.objects.filter(pk=user.pk).first() if user is not None else None
            if stored is not None and stored.password != user.password:
                after = "set" if stored.has_usable_password() else "disabled"
                _announce(request, "password", stored, {"password": "previous"}, {"password": after})
        return response


admin.site.unregister(Group)


@admin.register(Group)
class AuditedGroupAdmin(Audited, GroupAdmin):
    """A group's permissions are the powers of all its members (Moderators): changing them is audited too."""

    def stored(self, obj: Any) -> dict[str, dict[str, Any]]:
        if obj.pk is None:
            return {"group": {"name": None, "permissions": []}}
        group = Group.objects.get(pk=obj.pk)
        return {"group": {"name": group.name, "permissions": _permission_names(group.permissions)}}

    def subject(self, obj: Any) -> tuple[Any, Any]:
        return None, obj


admin.site.unregister(EmailAddress)


@admin.register(EmailAddress)
class AuditedEmailAddressAdmin(Audited, EmailAddressAdmin):
    """An address added, verified or made primary here receives the person's password resets: every change,
    removal and "mark verified" is audited."""

    def stored(self, obj: Any) -> dict[str, dict[str, Any]]:
        row = EmailAddress.objects.filter(pk=obj.pk).values("email", "verified", "primary").first() if obj.pk else None
        return {"email": row or NO_ADDRESS}

    def subject(self, obj: Any) -> tuple[Any, Any]:
        return obj.user, None

    def delete_model(self, request: Any, obj: Any) -> None:
        _announce(request, "email", obj.user, self.stored(obj)["email"], NO_ADDRESS)
        super().delete_model(request, obj)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        with transaction.atomic():
            for address in queryset.select_related("user"):
                self.delete_model(request, address)

    def make_verified(self, request: Any, queryset: Any) -> None:
        with transaction.atomic():
            unverified = list(queryset.filter(verified=False).select_related("user"))
            super().make_verified(request, queryset)
            for address in unverified:
                now = self.stored(address)["email"]
                _announce(request, "email", address.user, {**now, "verified": False}, now)

    make_verified.short_description = EmailAddressAdmin.make_verified.short_description


admin.site.unregister(TokenProxy)


class _TokenAsShown:
    """A token as its admin pages name it and link to it: by its owner (the pages of DRF's TokenAdmin are at
    the owner's id), never by its key, which is the token's primary key and would be in every link."""

    def __init__(self, token: ApiToken) -> None:
        self.pk = token.user_id
        self.label = str(token)

    def __str__(self) -> str:
        return self.label


@admin.register(ApiToken)
class RevokeOnlyTokenAdmin(TokenAdmin):
    """Tokens are listed by owner and date, and revoked (deleted, audited); never added, edited or shown."""

    list_display = ("user", "created")
    fields = ("user", "created")
    readonly_fields = ("user", "created")

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def render_change_form(self, request: Any, context: dict, *args: Any, **kwargs: Any) -> Any:
        if context.get("original") is not None:
            context["original"] = _TokenAsShown(context["original"])
        return super().render_change_form(request, context, *args, **kwargs)

    def render_delete_form(self, request: Any, context: dict) -> Any:
        shown = _TokenAsShown(context["object"])
        context.update(object=shown, deleted_objects=[str(shown)])
        return super().render_delete_form(request, context)

    def delete_model(self, request: Any, obj: ApiToken) -> None:
        token_revoked.send(sender=ApiToken, actor=request.user, user=obj.user)
        super().delete_model(request, obj)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        with transaction.atomic():
            for token in queryset.select_related("user"):
                self.delete_model(request, token)
