"""Who is asking: the client's address as the proxy configuration defines it, for every limit on the site.

uvicorn replaces the peer's address with the forwarded one only for connections from FORWARDED_ALLOW_IPS
(catan_site/serve.py); allauth then reads REMOTE_ADDR, or a forwarded header if ALLAUTH_TRUSTED_PROXY_COUNT or
ALLAUTH_TRUSTED_CLIENT_IP_HEADER say so. The API's throttles ask allauth too, so that a log-in counts against
the same address whichever door it comes through.
"""

from __future__ import annotations

import ipaddress

from allauth.account.adapter import get_adapter
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    return get_adapter(request).get_client_ip(request)


def is_local(request: HttpRequest) -> bool:
    """A caller on this machine (a container's own health check), never one that came through the proxy."""
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except (ValueError, PermissionDenied):  # no address, or not one
        return False
