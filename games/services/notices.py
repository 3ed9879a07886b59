"""Where a player's notices go (issue 42): their browsers' Web Push subscriptions, and email, push or both, for the
account or for one game (read by games/mail/push.py when a notice is sent)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from infra.errors import GameError

from ..mail import push
from ..models import PushSubscription, Seat

CHOICES = (push.EMAIL, push.PUSH, push.BOTH)
# One game's choice: "" as the account says, or none at all for this game.
GAME_CHOICES = ("", *CHOICES, push.NONE)


def push_subscribe(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep a browser's subscription for this user. An endpoint is one browser's: subscribed again (new keys, or
    another account logged in on that browser), it is theirs now, with its new keys."""
    if not push.enabled():
        raise GameError("push_unavailable", _("This site sends no push notifications."), status=409)
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
    return subscription


def push_unsubscribe(*, user: Any, endpoint: str) -> bool:
    """Forget this user's subscription at `endpoint`; whether there was one."""
    deleted, _detail = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def notify_by_set(*, user: Any, notify_by: str, game_id: int | None = None) -> str:
    """Where notices go: for the account, or (with `game_id`) for one game the user holds a seat in ("" there: as
    the account says; "none": no notice of that game). Only the seat's own player changes it."""
    if game_id is None:
        if notify_by not in CHOICES:
            raise GameError("bad_notify_by", _("Notices go by email, push or both."))
        user.notify_by = notify_by
        user.save(update_fields=["notify_by"])
        return notify_by
    if notify_by not in GAME_CHOICES:
        raise GameError("bad_notify_by", _("Notices of a game go by email, push, both or not at all."))
    if not Seat.objects.filter(game_id=game_id, user=user).update(notify_by=notify_by):
        raise GameError("not_seated", _("Only a player of this game can choose where its notices go."), status=403)
    return notify_by
