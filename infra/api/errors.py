"""One format for every API error: {"error": {"code": "...", "message": "..."}} with a 4xx status."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from infra.errors import GameError


def _first_message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        return f"{key}: {_first_message(value)}"
    return str(detail)


def too_large() -> dict[str, str]:
    """The API's answer (with 413) to a body over the size limits or holding a file: from a view or the door."""
    return {"code": "too_large", "message": _("The request body is too large.")}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, GameError):
        return Response({"error": exc.as_dict()}, status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        return Response({"error": too_large()}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        return Response({"error": {"code": "not_found", "message": "Not found."}}, status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        code = "invalid"
        message = _first_message(exc.detail)
        fields = exc.detail if isinstance(exc.detail, dict) else None
        body: dict[str, Any] = {"code": code, "message": message}
        if fields:
            body["fields"] = fields
    else:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        # The exception's own words: response.data wraps them as {"detail": ...}, which read "detail: ..."
        detail = exc.detail if isinstance(exc, exceptions.APIException) else response.data
        body = {"code": codes if isinstance(codes, str) else "error", "message": _first_message(detail)}
    response.data = {"error": body}
    return response
