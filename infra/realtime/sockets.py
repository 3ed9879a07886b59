"""WebSocket gatekeeping: a socket opens only from the site's own pages, and only on a path that exists."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import Any
from urllib.parse import urlsplit

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

NOT_FOUND = 4404  # the close code for a path no consumer serves


def origin_of(url: str) -> str:
    """scheme://host[:port] of a URL, in lower case, as browsers send it in Origin."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def own_origin(scope: dict[str, Any]) -> str | None:
    """The origin of the socket's own URL (its scheme and Host), if Host is one of ALLOWED_HOSTS."""
    host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1").lower()
    domain, _port = split_domain_port(host)
    if not (domain and validate_host(domain, settings.ALLOWED_HOSTS)):
        return None
    return f"{'https' if scope.get('scheme') == 'wss' else 'http'}://{host}"


def origin_allowed(origin: str, scope: dict[str, Any], trusted: Iterable[str]) -> bool:
    """The socket's own origin, or a trusted one: exactly, or a subdomain of a `scheme://*.domain` entry (as
    Django's CSRF check reads CSRF_TRUSTED_ORIGINS)."""
    if origin == own_origin(scope):
        return True
    asked = urlsplit(origin)
    for url in trusted:
        pattern = urlsplit(url.lower())
        if origin == origin_of(url) or (
            pattern.netloc.startswith("*.")
            and asked.scheme == pattern.scheme
            and is_same_domain(asked.netloc, pattern.netloc[1:])
        ):
            return True
    return False


class SameOriginWebSockets:
    """Compare the whole Origin (scheme, host and port) with the site's: Channels' AllowedHostsOriginValidator
    compares the host only, so a page on another port or over plain HTTP of the same host passed."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        origin = dict(scope.get("headers", [])).get(b"origin", b"").decode("latin-1").lower()
        trusted = [settings.SITE_URL, *settings.CSRF_TRUSTED_ORIGINS]
        if not origin or not origin_allowed(origin, scope, trusted):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


class SocketSession:
    """Channels' SessionMiddleware for sockets (inside its CookieMiddleware), without the wrapper it puts around
    every message sent: that wrapper acts only on an HTTP response's start (it saves the session and sets its
    cookie), which a socket never sends, and it was a layer of calls on every frame of every move. The session is
    loaded when first read (the user's lookup reads it); a consumer that changes it saves it itself."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner({**scope, "session": self.store(key)}, receive, send)


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any path no route serves: accepted and closed with 4404 (the router alone answered a 500)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=NOT_FOUND)
