"""JSON everywhere under /api/, even where no API view answers.

- `handler404`, `handler500`, `handler400`, `handler403` (named in catan_site/urls.py): under /api/ the error
  envelope {"error": {"code", "message"}} with a machine code, never the site's HTML page; elsewhere the site's
  pages as before. An unknown path or a non-integer id (`/api/games/abc/`) matches no URL pattern, so no API view
  and no DRF exception handler ever sees it.
- `JsonBodiesOnly` (a middleware, before anything reads a form body): the API takes JSON bodies only, as its
  schema says. Any other body, or any other declared Content-Type, under /api/ is refused with 415
  `unsupported_media_type` before it is parsed: a malformed multipart body used to reach Django's form parser
  and log a full traceback each time; now it is one warning line ("Unsupported Media Type: /api/...", from
  django.request).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

API_PREFIX = "/api/"
JSON_MEDIA_TYPE = "application/json"
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def error_response(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return error_response("not_found", _("Not found."), 404)
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return error_response("server_error", _("The server failed to answer. Please try again later."), 500)
    return defaults.server_error(request)


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return error_response("bad_request", _("The request is malformed."), 400)
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return error_response("permission_denied", _("You do not have permission to do this."), 403)
    return defaults.permission_denied(request, exception)


def _has_body(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    return length > 0 or "HTTP_TRANSFER_ENCODING" in request.META


class JsonBodiesOnly:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # A form type is refused even without a body: Django would still parse it (an empty multipart body
        # without a boundary raised MultiPartParserError, logged with its traceback).
        declared = bool(request.META.get("CONTENT_TYPE"))
        if (
            is_api(request)
            and request.method in BODY_METHODS
            and (declared or _has_body(request))
            and request.content_type != JSON_MEDIA_TYPE
        ):
            return error_response(
                "unsupported_media_type",
                _("The API takes JSON bodies only: send Content-Type: application/json."),
                415,
            )
        return self.get_response(request)
