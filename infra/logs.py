"""Structured logs: one JSON line per event (structlog), or a readable line for `make run`.

Every line carries what the context holds: the request id (an HTTP request's, bound by django-structlog's
middleware; a socket frame's, bound by the game consumer), the game, the user, and in a Celery task the id of
the request that queued it (django-structlog passes the context in the task's headers). An email row keeps the
request id of the move that wrote it (`current_request_id`, its column's default), so a mail sent later by the
flusher still names it. Both Django's own loggers and ours go through the same formatter.

    LOG_FORMAT=json     one JSON object per line (the default: what a log shipper reads)
    LOG_FORMAT=console  aligned key=value lines for a person at a terminal (`make run`)
"""

from __future__ import annotations

import logging
import re
import uuid
from typing import Any

import orjson
import structlog

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
FORMATS = ("json", "console")


def _json(event: dict[str, Any], **_kwargs: Any) -> str:
    return orjson.dumps(event, default=str).decode()


def _shared_processors() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def configure(fmt: str, level: str) -> dict[str, Any]:
    """Configure structlog and return Django's LOGGING for `fmt` ("json" or "console") at `level`."""
    if fmt not in FORMATS:
        raise ValueError(f"LOG_FORMAT is one of {', '.join(FORMATS)}, not {fmt!r}")
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *_shared_processors(),
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    logging.captureWarnings(True)  # a Python warning is a log line too ("py.warnings"), not raw text on stderr
    if fmt == "json":
        # A traceback as data, without the frames' local variables (they may hold a password or a token).
        without_locals = structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
        tracebacks = structlog.processors.ExceptionRenderer(without_locals)
        last = [tracebacks, structlog.processors.JSONRenderer(serializer=_json)]
    else:
        last = [structlog.dev.ConsoleRenderer(colors=False)]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": [structlog.stdlib.ProcessorFormatter.remove_processors_meta, *last],
                # Lines from loggers that are not structlog's (Django, Celery, uvicorn) get the same fields.
                "foreign_pre_chain": _shared_processors(),
            }
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        # Django's own loggers write through this handler too, not through its plain DEBUG-time console handler.
        "loggers": {"django": {"handlers": ["console"], "level": level, "propagate": False}},
    }


def request_id_from(candidate: Any) -> str:
    """The client's id for this request or frame when it is a short plain token, else a new one."""
    if isinstance(candidate, str) and _REQUEST_ID.fullmatch(candidate):
        return candidate
    return uuid.uuid4().hex


def bind(**values: Any) -> None:
    """Add `values` to every line logged from this context (and the Celery tasks it queues)."""
    structlog.contextvars.bind_contextvars(**values)


def current_request_id() -> str:
    """The request id this context is working for ("" outside any request, frame or task that carries one)."""
    return str(structlog.contextvars.get_contextvars().get("request_id", ""))


def get_logger(name: str) -> Any:
    return structlog.get_logger(name)


class RequestIdHeader:
    """Answers every request with its id (`X-Request-ID`): what a player quotes to support, and what finds the
    request's lines, and its tasks' lines, in the logs. Placed after django-structlog's middleware, which binds it."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        response = self.get_response(request)
        request_id = current_request_id()
        if request_id:
            response["X-Request-ID"] = request_id
        return response
