from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """OpenSkill ratings of people and bot levels, per mode of play (docs/RATINGS.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        # games/ never imports ratings/: ratings listens to games' own signal.
        from games.signals import game_finished  # apps are loaded only now

        from .services import rate_finished_game

        game_finished.connect(rate_finished_game, dispatch_uid="ratings.rate_finished_game")
