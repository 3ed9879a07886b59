from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _json_loads_as_text(sender, connection, **kwargs) -> None:
    """PostgreSQL `json` values reach Python as text, as Django has `jsonb` do: JSON fields decode them."""
    if connection.vendor == "postgresql":
        from psycopg.types.string import TextLoader  # psycopg is loaded only on PostgreSQL

        connection.connection.adapters.register_loader("json", TextLoader)


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        connection_created.connect(_json_loads_as_text, dispatch_uid="games.json_loads_as_text")
        # Imported once the models are ready (not at module level, where they are not yet): this connects the
        # receivers games keeps for accounts' signals (an account-wide vacation re-times every game's clock) in
        # every process, whether or not it has imported the services yet.
        from .services import seats  # noqa: F401
