"""The Celery app: configuration from Django settings (CELERY_*), tasks found in each app's tasks.py."""

from __future__ import annotations

import logging.config
import os

from celery import Celery
from celery.signals import setup_logging
from django_structlog.celery.steps import DjangoStructLogInitStep

from infra import logs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_site.settings")

app = Celery("catan_site")
# The current app for every thread, not only the one that imported this module: `current_app` (and the
# `shared_task` proxies) in a thread of the web server would otherwise fall back to a default app with
# Celery's own settings (not eager, broker amqp://localhost).
app.set_default()
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Each task's start and end logged with the request id of what queued it (infra/logs.py).
app.steps["worker"].add(DjangoStructLogInitStep)


@setup_logging.connect
def _logging_from_settings(loglevel: int | str | None = None, **_kwargs: object) -> None:
    """The worker and the beat log as the web does (infra/logs.py), not through Celery's own formatter; at the
    level of their `--loglevel` (every Procfile, Compose and Kubernetes command gives one), else LOG_LEVEL."""
    from django.conf import settings  # settings are read once Celery asks, not when this module is imported

    config = settings.LOGGING
    if loglevel:
        name = logging.getLevelName(loglevel) if isinstance(loglevel, int) else str(loglevel)
        config = logs.configure(settings.LOG_FORMAT, name)
    logging.config.dictConfig(config)
