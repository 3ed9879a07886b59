"""What the OpenAPI schema (/api/schema/) says about every operation beyond its own body: the one error envelope
as a component, and the error statuses each operation can answer, derived from how the view is built.

Every error under /api/ has the shape {"error": {"code", "message", "fields"?}} (infra/api/errors.py formats
them, infra/api/fallbacks.py answers unknown paths and failures in the same shape). Views list the statuses
only they can answer (409 for a conflict, 429 for a rate limit) with `error_responses(...)`; `ApiAutoSchema` adds
those that follow from the view's shape:

- 400 for an operation with a body or query parameters (a malformed or invalid value),
- 401 and 403 for an operation that authenticates (a bad token; a refusal or a failed CSRF check),
- 404 for a path with an id in it,
- 413 and 415 for an operation with a body (too large; not `application/json`),
- 429 for a throttled view.

No module of the project's apps is imported here: the games, accounts and moderation APIs all use it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

ERROR_DESCRIPTIONS = {
    400: "The request is malformed or a value is invalid (`invalid`, `parse_error`, or a code of the operation).",
    401: "No credentials, or a token that is unknown or expired (`not_authenticated`, `authentication_failed`, "
    "`token_expired`).",
    403: "Not allowed to do this (`permission_denied`, or a code of the operation such as `not_a_player`).",
    404: "No such object, or not one this account may see (`not_found`).",
    405: "The method is not one this path takes (`method_not_allowed`).",
    409: "The request conflicts with the state of the game or account (for example `not_your_turn`, `stale`).",
    410: "It has expired (for example `offer_expired`).",
    413: "The body is over the size limit, or holds a file (`too_large`).",
    415: "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`).",
    429: "Too many requests: wait a moment (`rate_limited`, `throttled`).",
    500: "The server failed (`server_error`). This is a bug: please report it.",
}


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A machine code, stable across languages: `not_found`, `invalid`, ...")
    message = serializers.CharField(help_text="A readable message, in the account's language.")
    fields = serializers.DictField(
        required=False,
        help_text="For `invalid`: each field in error with its list of messages (an object of them for a field "
        "that is itself an object).",
    )


class ErrorSerializer(serializers.Serializer):
    """The one error envelope of the API. Some codes add facts of their own beside `code` and `message` (a stale
    move adds the game's current `seq`)."""

    error = ErrorDetailSerializer()


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The `responses` entries for these error statuses, all with the error envelope."""
    return {status: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[status]) for status in statuses}


BODY_METHODS = ("POST", "PUT", "PATCH")


class ApiAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, adding the error statuses every operation of its shape can answer."""

    def _implied_error_statuses(self) -> list[int]:
        statuses = []
        with_body = self.method in BODY_METHODS and self.get_request_serializer() is not None
        has_query = any(p.get("in") == "query" for p in self._get_parameters())
        if with_body or has_query:
            statuses.append(400)
        if self.view.get_authenticators():
            statuses += [401, 403]
        if "{" in self.path:
            statuses.append(404)
        if with_body:
            statuses += [413, 415]
        if getattr(self.view, "throttle_classes", None):
            statuses.append(429)
        return statuses

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for status in self._implied_error_statuses():
            if str(status) not in responses:
                response = OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[status])
                responses[str(status)] = self._get_response_for_code(response, str(status), direction=direction)
        return dict(sorted(responses.items()))
