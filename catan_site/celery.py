"""The Celery app: configuration from Django settings (CELERY_*), tasks found in each app's tasks.py."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_site.settings")

app = Celery("catan_site")
# The current app for every thread, not only the one that imported this module: `current_app` (and the
# `shared_task` proxies) in a thread of the web server would otherwise fall back to a default app with
# Celery's own settings (not eager, broker amqp://localhost).
app.set_default()
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
