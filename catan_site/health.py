"""/healthz: the database, the channel layer and the broker, each ok or failing, never crashing. For a load
balancer and an orchestrator: /healthz/live (the process answers, even while draining) and /healthz/ready (it
takes new players: not draining, and its database and channel layer answer).

Anyone may ask whether the site is healthy; only staff and callers on the machine itself (the container's
health check) are told the details, which name internal hosts, ports and errors.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from accounts.clients import is_local
from infra import drain

TIMEOUT_SECONDS = 2.0


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "detail": connection.vendor}
    except Exception as error:
        return {"ok": False, "detail": f"{type(error).__name__}: {error}"[:200]}


async def _layer_round_trip() -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    marker = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.check", "marker": marker})
    message = await layer.receive(channel)
    if message.get("marker") != marker:
        raise RuntimeError("channel layer returned another message")
    return type(layer).__name__


def check_channel_layer() -> dict[str, Any]:
    async def bounded() -> str:
        return await asyncio.wait_for(_layer_round_trip(), TIMEOUT_SECONDS)

    try:
        return {"ok": True, "detail": async_to_sync(bounded)()}
    except Exception as error:
        return {"ok": False, "detail": f"{type(error).__name__}: {error}"[:200]}


def check_broker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "detail": "eager (tasks run in-process)"}
    from catan_site.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=TIMEOUT_SECONDS)
        return {"ok": True, "detail": conn.transport_cls if isinstance(conn.transport_cls, str) else "connected"}
    except Exception as error:
        return {"ok": False, "detail": f"{type(error).__name__}: {error}"[:200]}


def healthz(request: HttpRequest) -> JsonResponse:
    started = time.perf_counter()
    checks = {"database": check_database(), "channel_layer": check_channel_layer(), "broker": check_broker()}
    healthy = all(c["ok"] for c in checks.values())
    if not (request.user.is_staff or is_local(request)):
        checks = {name: {"ok": check["ok"]} for name, check in checks.items()}
    body = {
        "status": "ok" if healthy else "failing",
        "checks": checks,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }
    return JsonResponse(body, status=200 if healthy else 503)


def healthz_live(request: HttpRequest) -> JsonResponse:
    """Alive: the process answers (a draining node is alive until its last socket has moved)."""
    return JsonResponse({"status": "alive", "draining": drain.is_draining()})


def healthz_ready(request: HttpRequest) -> JsonResponse:
    """Ready for new connections: not draining, and the database and channel layer answer. A load balancer sends
    no one to a node that answers 503 here."""
    if drain.is_draining():
        return JsonResponse({"status": "draining"}, status=503)
    checks = {"database": check_database(), "channel_layer": check_channel_layer()}
    ready = all(c["ok"] for c in checks.values())
    if not (request.user.is_staff or is_local(request)):
        checks = {name: {"ok": check["ok"]} for name, check in checks.items()}
    return JsonResponse({"status": "ready" if ready else "failing", "checks": checks}, status=200 if ready else 503)
