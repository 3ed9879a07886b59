"""catan_http_requests_total{route,status}: the route is the URL pattern that answered (`games/<int:game_id>/`),
never the raw path (one series per game would grow without end); a path no pattern matches is `unmatched`."""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

from infra import metrics


def route_of(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None or match.route is None:
        return "unmatched"
    return "/" + match.route


@sync_and_async_middleware
def http_metrics(get_response: Callable) -> Callable:
    """First in the list: it counts every answer, those of the other middleware (a refused body) included. Sync or
    async as the chain below it is, so it never adds a thread hop."""
    if iscoroutinefunction(get_response):

        async def counted_async(request: HttpRequest) -> HttpResponse:
            response = await get_response(request)
            metrics.HTTP_REQUESTS.labels(route_of(request), str(response.status_code)).inc()
            return response

        return counted_async

    def counted(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        metrics.HTTP_REQUESTS.labels(route_of(request), str(response.status_code)).inc()
        return response

    return counted
