"""Replay a finished game from its revealed seed and confirm every roll: `manage.py verify_game ID`."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.fairness import verify
from games.models import Game


class Command(BaseCommand):
    help = "Check a finished game's dice against its published seed commitment."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_id", type=int)

    def handle(self, *args, game_id: int, **options) -> None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"No game {game_id}.")
        result = verify(game)
        if not result["verifiable"]:
            raise CommandError(result["reason"])
        self.stdout.write(f"commitment {result['commitment']}")
        self.stdout.write(f"seed       {result['seed']} ({'matches' if result['commitment_ok'] else 'DOES NOT MATCH'})")
        self.stdout.write(f"rolls      {len(result['rolls'])} replayed, {len(result['mismatches'])} mismatched")
        self.stdout.write(f"final      {'identical' if result['final_state_ok'] else 'DIFFERENT'}")
        if not result["ok"]:
            raise CommandError("verification failed")
        self.stdout.write(self.style.SUCCESS("verified: every roll follows from the published seed"))
