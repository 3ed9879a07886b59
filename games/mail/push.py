"""Web Push notices (RFC 8030 and RFC 8291, with VAPID, RFC 8292; issue 42): the same outbox rows as the mail, sent
to the reader's browsers by their push services, encrypted with each subscription's keys (`pywebpush`).

Per account (`User.notify_by`: email, push or both) with a per-game override (`Seat.notify_by`). A row is pushed
once (`Notification.pushed_at`) by the same sender that mails it, so a push inherits every guarantee of the mail:
written in the move's transaction, sent after commit by a task (never in the move), held while its reader is at the
table, dropped when stale, retried with backoff and by the flusher when a push service fails. A subscription its
push service answers 404 or 410 for is gone: it is removed, and the row counts as pushed to it.

The payload names the game and the decision; its one action, where it is safe (a roll: there is nothing to choose),
opens the email's one-click page for that decision (`games/mail/links.action_url`): one use, bound to the player,
the game and the move, and played only by that page's POST."""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

import rules
from rules.ai.autoplay import offered_verbs

from ..models import Notification, PushSubscription, Seat
from .links import action_url
from .summaries import decision, seat_names

logger = logging.getLogger(__name__)

EMAIL, PUSH, BOTH = "email", "push", "both"
NONE = "none"  # one game's choice only: no notice of it at all (the account's is `notify`)
# Verbs offered as a notification's button: those with nothing to choose and nothing to regret.
SAFE_VERBS = ("roll",)
GONE = (404, 410)


class PushFailed(ConnectionError):
    """A push service did not take a notice (other than "gone"): a ConnectionError, so that the row's task retries
    it with backoff as it does an SMTP failure (games/tasks.py), and the flusher after it."""


def notify_by(user: Any, seat: Seat | None) -> str:
    """Where this player's notices of this game go: the game's own choice (`none` included), else the account's."""
    chosen = getattr(seat, "notify_by", "") or getattr(user, "notify_by", EMAIL)
    return chosen if chosen in (EMAIL, PUSH, BOTH, NONE) else EMAIL


def wants_email(user: Any, seat: Seat | None) -> bool:
    return notify_by(user, seat) in (EMAIL, BOTH) and user.notify != user.Notify.NONE and bool(user.email)


def wants_push(user: Any, seat: Seat | None) -> bool:
    return notify_by(user, seat) in (PUSH, BOTH)


def channels(notification: Notification) -> tuple[bool, bool]:
    """(mail it, push it) for this row, as its reader chose for its game, now: a reader who wants no email (`notify`
    "none", or no address) and push is pushed only."""
    seat = Seat.objects.filter(game_id=notification.game_id, user_id=notification.user_id).first()
    user = notification.user
    return wants_email(user, seat), wants_push(user, seat) and notification.pushed_at is None


def enabled() -> bool:
    """Whether this site has VAPID keys (settings): without them nothing is pushed and nobody may subscribe."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def payload(notification: Notification, decision_kinds: set[str]) -> dict[str, Any]:
    """What the service worker shows: a title naming the game, the decision, the game's page, at most one action
    (for `decision_kinds`, the kinds that announce a decision)."""
    game = notification.game
    user = notification.user
    seat = game.seats.filter(user=user).first()
    index = seat.index if seat is not None else None
    with translation.override(user.language):
        title = _("Your turn in %(game)s") % {"game": game}
        if notification.kind not in decision_kinds:
            title = f"{notification.get_kind_display()}: {game}"
        body = ""
        action = None
        if game.state and index is not None:
            state = rules.load(game.state)
            body = decision(rules.view(state, index), notification.kind, seat_names(game))
            if notification.seq == game.seq and notification.kind in decision_kinds:
                verbs = [verb for verb in offered_verbs(state, index) if verb in SAFE_VERBS]
                if verbs:
                    url = action_url(notification.action_code, verbs[0])
                    action = {"verb": verbs[0], "title": _("Roll the dice"), "url": url}
    return {
        "title": title,
        "body": body,
        "tag": f"game-{game.pk}",  # a newer notice of the same game replaces the older one on the device
        "url": f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}/",
        "action": action,
    }


def deliver(notification: Notification, decision_kinds: set[str]) -> int:
    """Push the row to each of its reader's subscriptions; how many took it. Gone ones (404, 410) are removed; any
    other failure raises PushFailed once every subscription was tried (the sender retries the row)."""
    # pywebpush (and its requests, cryptography) loaded where a push is sent, not in every web process.
    from pywebpush import WebPushException, webpush

    subscriptions = list(PushSubscription.objects.filter(user_id=notification.user_id))
    if not subscriptions or not enabled():
        return 0
    data = json.dumps(payload(notification, decision_kinds))
    delivered, failures = 0, []
    for subscription in subscriptions:
        try:
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=data,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=settings.PUSH_TTL_SECONDS,
                timeout=settings.PUSH_TIMEOUT,
                # RFC 8030 5.4: a push service replaces an undelivered message of the same topic (a retry).
                headers={"Topic": f"notice-{notification.pk}"},
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                subscription.delete()
                continue
            failures.append(f"{status}: {error}")
        except Exception as error:  # the push service unreachable, timed out
            failures.append(f"{type(error).__name__}: {error}")
        else:
            delivered += 1
    if failures:
        raise PushFailed("; ".join(failures)[:250])
    return delivered
