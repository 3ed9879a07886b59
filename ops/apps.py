from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects Celery's task signals once the apps are loaded)
