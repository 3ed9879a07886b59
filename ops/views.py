"""/metrics (Prometheus text, for a bearer of METRICS_TOKEN) and /ops/ (the same key figures for superusers)."""

from __future__ import annotations

import hmac
import time

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from prometheus_client import CONTENT_TYPE_LATEST

from infra import metrics

from . import collect


def metrics_view(request: HttpRequest) -> HttpResponse:
    """No token configured: there is no such page (404). A missing or wrong bearer token: 401 with a code."""
    token = getattr(settings, "METRICS_TOKEN", "")
    if not token:
        raise Http404
    given = request.headers.get("Authorization", "")
    scheme, _, value = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), token.encode()):
        response = JsonResponse(
            {"error": {"code": "unauthorized", "message": "A bearer token is required."}}, status=401
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    body = metrics.exposition(collect.scrape_registry())
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def _totals() -> dict[str, dict[str, float]]:
    """Each exported counter and gauge's samples by label value (one label) or under "" (none), all processes."""
    found: dict[str, dict[str, float]] = {}
    for family in metrics.registry().collect():
        for sample in family.samples:
            if sample.name.endswith(("_created", "_bucket")):
                continue
            key = ",".join(str(v) for k, v in sorted(sample.labels.items()) if k != "pid")
            found.setdefault(sample.name, {})
            found[sample.name][key] = found[sample.name].get(key, 0.0) + sample.value
    return found


def ops_page(request: HttpRequest) -> HttpResponse:
    """Superusers only: anonymous people are sent to log in, anyone else is refused (403)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_superuser:
        return render(request, "403.html", status=403) if _has_403() else HttpResponse(status=403)
    totals = _totals()
    figures = collect.figures()
    moves = totals.get("catan_moves_total", {})
    durations = totals.get("catan_move_duration_seconds_sum", {})
    counts = totals.get("catan_move_duration_seconds_count", {})
    beat = totals.get("catan_beat_last_tick_timestamp", {}).get("", 0.0)
    context = {
        "moves_accepted": int(moves.get("accepted", 0)),
        "moves_refused": int(sum(n for result, n in moves.items() if result != "accepted")),
        "move_mean_ms": 1000 * durations.get("total", 0.0) / counts["total"] if counts.get("total") else None,
        "sockets_open": int(totals.get("catan_sockets_open", {}).get("", 0)),
        "games_active": figures["games_active"],
        "mail_sent": int(sum(totals.get("catan_mail_sent_total", {}).values())),
        "mail_failed": int(sum(totals.get("catan_mail_failed_total", {}).values())),
        "outbox_oldest_seconds": round(figures["outbox_oldest_seconds"]),
        "queues": figures["queue_length"],
        "beat_seconds_ago": round(time.time() - beat) if beat else None,
    }
    return render(request, "ops/index.html", context)


def _has_403() -> bool:
    return False
