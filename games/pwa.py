"""The installable app (issue 42): the web manifest, the service worker (served from the site's root, so that its
scope is the whole site) and the offline page it shows when the network is gone."""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# Bump when the shell's list changes: the worker then drops the old cache (file names carry their hash anyway).
SHELL_VERSION = "1"


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
        for size in (192, 512)
    ]
    icons.append({"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"})
    data = {
        "name": "Catan",
        "short_name": "Catan",
        "description": _("Play Catan live or by email."),
        "start_url": "/games/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fff7ed",
        "theme_color": "#c2410c",
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_GET
@cache_control(no_cache=True)  # browsers look for a new worker at each visit; it must not be served stale
def service_worker(request: HttpRequest) -> HttpResponse:
    shell = [
        "/offline/",
        static("css/site.css"),
        static("css/game.css"),
        static("js/page.js"),
        static("icons/icon-192.png"),
    ]
    response = render(
        request,
        "pwa/sw.js",
        {
            "shell_json": json.dumps(shell),
            "version": SHELL_VERSION,
            "icon": static("icons/icon-192.png"),
            "hashed": json.dumps(not settings.DEBUG),  # with DEBUG, static names carry no hash: never cache-first
        },
        content_type="application/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")
