from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    """After the game: statistics from the move log, their charts, and the replay steps (docs/REPLAYS.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "replays"
