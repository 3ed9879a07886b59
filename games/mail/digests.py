"""The daily digest: one mail per digest reader, at their own local hour, listing the games waiting on them."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation

from .. import clocks
from ..models import Notification
from .links import login_url, unsubscribe_url
from .rendering import unsubscribe_headers
from .sending import still_pending


def digest_due(user, moment: datetime) -> bool:
    """Whether it is the hour of the day, in the user's time zone, at which they asked for their digest."""
    return moment.astimezone(zoneinfo.ZoneInfo(user.time_zone or "UTC")).hour == user.digest_hour


def send_digests(every_hour: bool = False) -> int:
    """One mail per digest user listing the games waiting on them; their rows count as sent. Beat runs this at
    the top of every hour: each user gets theirs at their own local hour (`every_hour` sends all now)."""
    moment = clocks.now()
    pending = Notification.objects.filter(
        sent_at__isnull=True, dropped_at__isnull=True, digest=True, send_after__lte=moment
    )
    users = {}
    for notification in pending.select_related("user", "game"):
        if not (every_hour or digest_due(notification.user, moment)):
            continue
        if not still_pending(notification):  # decided since (on the page, by a timeout): not worth listing
            Notification.objects.filter(pk=notification.pk).update(dropped_at=moment)
            continue
        users.setdefault(notification.user, []).append(notification)
    sent = 0
    for user, rows in users.items():
        games = sorted({n.game for n in rows}, key=lambda g: g.pk)
        with translation.override(user.language):
            context = {
                "user": user,
                "games": [{"game": g, "link": login_url(user, g.pk)} for g in games],
                "unsubscribe": unsubscribe_url(user),
            }
            subject = render_to_string("emails/digest_subject.txt", context).strip()
            text = render_to_string("emails/digest.txt", context)
            html = render_to_string("emails/digest.html", context)
        message = EmailMultiAlternatives(subject, text, to=[user.email], headers=unsubscribe_headers(user))
        message.attach_alternative(html, "text/html")
        message.send()
        Notification.objects.filter(pk__in=[n.pk for n in rows]).update(sent_at=clocks.now())
        sent += 1
    return sent
