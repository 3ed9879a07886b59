from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects moderation's receivers of games' signals (games.signals) and accounts' (privilege changes)
        # in every process, once the models are ready.
        from . import admin_audit, receivers  # noqa: F401
