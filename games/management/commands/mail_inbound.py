"""Take replies to notification emails: an SMTP server for play+<code>@INBOUND_EMAIL_DOMAIN (see games/inbound.py)."""

from __future__ import annotations

import threading

from aiosmtpd.controller import Controller
from django.core.management.base import BaseCommand

from games.inbound import InboundHandler


class Command(BaseCommand):
    help = "Serve SMTP for replies to notification emails (decisions by email)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="0.0.0.0")
        parser.add_argument("--port", type=int, default=8025)

    def handle(self, *args, host: str, port: int, **options) -> None:
        controller = Controller(InboundHandler(), hostname=host, port=port)
        controller.start()
        self.stdout.write(f"taking replies on {host}:{port}")
        try:
            threading.Event().wait()
        finally:
            controller.stop()
