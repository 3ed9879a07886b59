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

import json
import logging
import re
import sys
import uuid
from typing import Any

import orjson
import structlog

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
FORMATS = ("json", "console")


def _json(event: dict[str, Any], **_kwargs: Any) -> str:
    return _json_bytes(event).decode()


def _json_bytes(event: dict[str, Any], **_kwargs: Any) -> bytes:
    """orjson, or the standard library's json for what orjson refuses: an integer beyond 64 bits (a request's id
    as a client typed it, logged before anything could refuse it) must not turn a log line into a 500."""
    try:
        return orjson.dumps(event, default=str)
    except TypeError:
        return json.dumps(event, default=str, ensure_ascii=False).encode()


def _logger_field(_logger: Any, _method: str, event: dict[str, Any]) -> dict[str, Any]:
    """Our events name their logger under "logger", as the standard library's lines do (see `get_logger`)."""
    if "logger_name" in event:
        event["logger"] = event.pop("logger_name")
    return event


def _tracebacks() -> Any:
    """A traceback as data, without the frames' local variables (they may hold a password or a token)."""
    return structlog.processors.ExceptionRenderer(structlog.tracebacks.ExceptionDictTransformer(show_locals=False))


def _foreign_chain() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def configure(fmt: str, level: str) -> dict[str, Any]:
    """Configure structlog and return Django's LOGGING for `fmt` ("json" or "console") at `level`.

    Two roads to the same stderr, in the same shape. Our events (`get_logger`; django-structlog's) are rendered by
    structlog alone and written in one call: 9 µs a line where the standard library's handler took 28 (a move
    logs one). Lines of the standard library's loggers (Django, Celery, uvicorn, Python's warnings) go through its
    handler, with a formatter that adds the same fields."""
    if fmt not in FORMATS:
        raise ValueError(f"LOG_FORMAT is one of {', '.join(FORMATS)}, not {fmt!r}")
    threshold = logging.getLevelName(level.upper())
    if not isinstance(threshold, int):
        raise ValueError(f"LOG_LEVEL is a level's name (DEBUG, INFO, WARNING, ERROR), not {level!r}")
    ours = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        _logger_field,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
    ]
    if fmt == "json":
        last = [_tracebacks(), structlog.processors.JSONRenderer(serializer=_json)]
        ours += [_tracebacks(), structlog.processors.JSONRenderer(serializer=_json_bytes)]
        factory: Any = structlog.BytesLoggerFactory(getattr(sys.stderr, "buffer", sys.stderr))
    else:
        last = [structlog.dev.ConsoleRenderer(colors=False)]
        ours += [structlog.dev.ConsoleRenderer(colors=False)]
        factory = structlog.WriteLoggerFactory(sys.stderr)
    structlog.configure(
        processors=ours,
        wrapper_class=structlog.make_filtering_bound_logger(threshold),
        logger_factory=factory,
        cache_logger_on_first_use=True,
    )
    logging.captureWarnings(True)  # a Python warning is a log line too ("py.warnings"), not raw text on stderr
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": [structlog.stdlib.ProcessorFormatter.remove_processors_meta, *last],
                "foreign_pre_chain": _foreign_chain(),
            }
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": threshold},
        # Django's own loggers write through this handler too, not through its plain DEBUG-time console handler.
        "loggers": {
            "django": {"handlers": ["console"], "level": threshold, "propagate": False},
            # Celery's own "received" and "succeeded in" lines say again what django-structlog's task_started and
            # task_succeeded say (with the request id and the duration): two lines a task less. Its warnings and a
            # task's failure, with the traceback, still come.
            "celery.app.trace": {"level": max(threshold, logging.WARNING)},
            "celery.worker.strategy": {"level": max(threshold, logging.WARNING)},
        },
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
    """Our events' logger: each line names `name` as its logger, as the standard library's lines do."""
    return structlog.get_logger(logger_name=name)  # "logger" itself is get_logger's own keyword


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
