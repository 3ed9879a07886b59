"""Text that PostgreSQL cannot store is refused at the door.

PostgreSQL refuses the NUL character in text: a query parameter or form field holding one, used in a filter or
saved, raised DataError (a 500) wherever a view had not stripped it itself. This middleware answers any request
whose query string or form fields hold NUL with a 400 before a view runs: the API's JSON error (`bad_text`) under
/api/, the site's own "Bad request" page elsewhere. JSON bodies are the API's serializers' to check, socket frames
the consumer's."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _

from .errors import too_large

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _holds_nul(data: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in data.lists())


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        form = request.method == "POST" and request.content_type in FORM_TYPES
        try:
            refused = _holds_nul(request.GET) or (form and _holds_nul(request.POST))
        except RequestDataTooBig:
            # A body over the size limits, or with a file part (infra/api/uploads.py): the API's JSON 413;
            # pages get Django's 400 (templates/400.html).
            if not request.path.startswith("/api/"):
                raise
            return JsonResponse({"error": too_large()}, status=413)
        if refused:
            message = _("Text may not contain the NUL character.")
            if request.path.startswith("/api/"):
                return JsonResponse({"error": {"code": "bad_text", "message": message}}, status=400)
            return render(request, "400.html", {"message": message}, status=400)
        return self.get_response(request)
