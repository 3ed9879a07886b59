"""The local mailbox page: read the site's mail, reply to a turn mail through the inbound handler over SMTP."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from localmail import store

REPLY_MAX_CHARS = 2000


def _folder() -> Path:
    """The catcher's folder; a 404 where there is none (production)."""
    if not settings.LOCAL_MAILBOX_DIR:
        raise Http404
    return Path(settings.LOCAL_MAILBOX_DIR)


@require_http_methods(["GET"])
def inbox(request: HttpRequest) -> HttpResponse:
    """Like a local mail catcher's web view, every mail is listed for whoever reaches the site (a sign-up's
    confirmation must be readable before its account can log in); `?to=` narrows it, by default to the
    person's own address."""
    default = request.user.email if request.user.is_authenticated else ""
    to = request.GET.get("to", default).strip()[:254]
    return render(
        request,
        "localmail/inbox.html",
        {
            "mails": store.latest(_folder(), to=to),
            "to": to,
            "own": default,
            "inbound": bool(settings.LOCAL_INBOUND_SMTP),
        },
    )


@require_POST
def reply(request: HttpRequest, name: str) -> HttpResponse:
    """Send what was typed as the reply its recipient would write: from the mail's first recipient to its
    Reply-To, over SMTP to the inbound handler (manage.py mail_inbound), which decides what it is worth."""
    mail = store.one(_folder(), name)
    if mail is None:
        raise Http404
    back = redirect(f"{reverse('local-mail')}?{urlencode({'to': mail.recipients[0] if mail.recipients else ''})}")
    text = request.POST.get("text", "").strip()
    if not mail.reply_to or not settings.LOCAL_INBOUND_SMTP:
        messages.error(request, _("This mail takes no reply by email."))
        return back
    if not text or len(text) > REPLY_MAX_CHARS:
        messages.error(request, _("Type a reply of 1 to %(n)d characters.") % {"n": REPLY_MAX_CHARS})
        return back
    reply_mail = EmailMessage()
    reply_mail["From"] = mail.recipients[0]
    reply_mail["To"] = mail.reply_to
    reply_mail["Subject"] = f"Re: {mail.subject}"
    if mail.message.get("Message-ID"):
        reply_mail["In-Reply-To"] = mail.message["Message-ID"]
    reply_mail.set_content(text)
    host, _sep, port = settings.LOCAL_INBOUND_SMTP.rpartition(":")
    try:
        with smtplib.SMTP(host, int(port), timeout=10) as smtp:
            smtp.send_message(reply_mail)
    except smtplib.SMTPRecipientsRefused:
        messages.error(request, _("The inbound mail handler refused the address %(a)s.") % {"a": mail.reply_to})
    except (OSError, smtplib.SMTPException) as error:
        messages.error(request, _("The inbound mail handler did not answer: %(e)s") % {"e": error})
    else:
        sent = _("Reply sent to %(a)s: the game applies it if it is still due.")
        messages.success(request, sent % {"a": mail.reply_to})
    return back
