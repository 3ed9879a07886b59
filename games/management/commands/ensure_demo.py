"""Create the demo accounts (idempotent): `demo`/`demo` to play, `admin`/`admin` to moderate."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from accounts.models import User
from games import services
from games.models import Game

ACCOUNTS = (
    ("demo", "demo", "demo@example.com", "Demo", False),
    ("admin", "admin", "admin@example.com", "Admin", True),
)


class Command(BaseCommand):
    help = "Create the demo player and admin accounts if they do not exist."

    def handle(self, *args, **options) -> None:
        for username, password, email, display, staff in ACCOUNTS:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User(username=username, email=email, display_name=display, is_staff=staff, is_superuser=staff)
                user.set_password(password)
                user.save()
                self.stdout.write(f"created {username} (password {password})")
            moderators = Group.objects.filter(name="Moderators").first()  # made by a migration, kept by moderation
            if staff and moderators is not None:
                user.groups.add(moderators)
            EmailAddress.objects.update_or_create(user=user, email=email, defaults={"verified": True, "primary": True})
        self._demo_games(User.objects.get(username="demo"))

    def _demo_games(self, demo: User) -> None:
        """Bots ready to play: a base game and a Seafarers game against three bots, waiting for `demo`."""
        for name, scenario in (("Demo — Catan vs 3 bots", "base"), ("Demo — New Shores vs 3 bots", "new_shores")):
            if Game.objects.filter(name=name, status=Game.Status.ACTIVE).exists():
                continue
            game = services.game_create(
                creator=demo,
                name=name,
                scenario=scenario,
                seat_count=4,
                bot_seats=[1, 2, 3],
                options={"seat_order": "fixed"},
                visibility=Game.Visibility.PRIVATE,
            )
            services.game_start(game_id=game.pk, user=demo)
            self.stdout.write(f"created '{name}' for demo")
        self._demo_email_game(demo)

    def _demo_email_game(self, demo: User) -> None:
        """Play by email against three bots. Where the site allows short clocks (make run: 3 minutes), the shortest,
        so that the turn mail, the reminder and the timeout are seen within minutes in make run's local mailbox."""
        shortest = settings.ASYNC_MIN_MOVE_SECONDS
        move_seconds = shortest if shortest < 3600 else 24 * 3600
        name = "Demo — by email vs 3 bots"
        if Game.objects.filter(name=name, status__in=[Game.Status.ACTIVE, Game.Status.PAUSED]).exists():
            return
        game = services.game_create(
            creator=demo,
            name=name,
            scenario="base",
            seat_count=4,
            bot_seats=[1, 2, 3],
            options={"seat_order": "fixed"},
            visibility=Game.Visibility.PRIVATE,
            clock=Game.Clock.ASYNC,
            move_seconds=move_seconds,
        )
        services.game_start(game_id=game.pk, user=demo)
        self.stdout.write(f"created '{name}' for demo")
