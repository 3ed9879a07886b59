"""Emails name the site from SITE_URL (not example.com), and plain-text emails carry text, not HTML entities."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.sites.models import Site
from django.core import mail
from django.template.loader import render_to_string
from django.test import Client

pytestmark = pytest.mark.django_db

NAME = 'Tom\'s "great" <game> & co'


def test_the_site_is_named_from_site_url():
    site = Site.objects.get(pk=settings.SITE_ID)
    assert site.domain == urlsplit(settings.SITE_URL).netloc and site.name == "Catan"


def test_the_sign_up_email_names_catan_not_example_com():
    response = Client().post(
        "/accounts/signup/",
        {
            "email": "new@example.org",
            "username": "newcomer",
            "password1": "a long secret 1234",
            "password2": "a long secret 1234",
        },
    )
    assert response.status_code == 302
    (message,) = mail.outbox
    assert "example.com" not in message.subject + message.body
    assert message.subject.startswith("[Catan]")
    assert re.search(r"https?://testserver/accounts/confirm-email/", message.body)


class Game:
    def __str__(self) -> str:
        return NAME


class Person:
    label = 'Ann "the bold" <ann>'


ANN = 'Ann "the bold" <ann>'


@pytest.mark.parametrize(
    ("template", "context", "expected"),
    [
        (
            "emails/notification.txt",
            {
                "user": Person(),
                "kind": "Your turn",
                "game": Game(),
                "lines": ["a > b & c"],
                "link": "http://x/?a=1&b=2",
            },
            [ANN, NAME, "- a > b & c", "http://x/?a=1&b=2"],
        ),
        ("emails/notification_subject.txt", {"kind": "Your turn", "game": Game()}, [NAME]),
        (
            "emails/digest.txt",
            {"user": Person(), "games": [{"game": Game(), "link": "http://x/?a=1&b=2"}]},
            [ANN, NAME],
        ),
        ("emails/digest_subject.txt", {"games": [1, 2]}, ["2 games are waiting for you"]),
    ],
)
def test_plain_text_emails_are_not_html_escaped(template, context, expected):
    text = render_to_string(template, context)
    for part in expected:
        assert part in text, text
    assert not re.search(r"&(quot|lt|gt|amp|#x27);", text), text


EMAIL_TEXTS = sorted((Path(settings.BASE_DIR) / "templates" / "emails").glob("*.txt"))


@pytest.mark.parametrize("template", EMAIL_TEXTS, ids=lambda path: path.name)
def test_every_plain_text_email_template_turns_autoescape_off(template):
    text = template.read_text()
    assert "{% autoescape off %}" in text and text.rstrip().endswith("{% endautoescape %}")
