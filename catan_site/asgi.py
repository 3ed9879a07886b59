"""HTTP and WebSocket entry point: ProtocolTypeRouter with a same-origin check and session auth."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddleware  # noqa: E402  (Django must be set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from infra.realtime.sockets import NoSuchSocket, SameOriginWebSockets, SocketSession  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Channels' AuthMiddlewareStack, with SocketSession for its session middleware.
        "websocket": SameOriginWebSockets(
            CookieMiddleware(
                SocketSession(
                    AuthMiddleware(URLRouter([*websocket_urlpatterns, re_path(r"", NoSuchSocket.as_asgi())]))
                )
            )
        ),
    }
)
