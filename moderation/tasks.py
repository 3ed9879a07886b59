"""Celery tasks of moderation, queued by beat."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="moderation.lift_expired_suspensions")
def lift_expired_suspensions() -> int:
    return services.lift_expired_suspensions()
