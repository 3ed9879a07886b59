"""The view that serves /api/schema/ (apart from api_schema.py, which DRF's settings load while drf-spectacular's
views module is still being imported: importing those views there is a circle)."""

from __future__ import annotations

import threading
from typing import Any

from drf_spectacular.views import SpectacularAPIView


class SchemaView(SpectacularAPIView):
    """/api/schema/, built for one request at a time: drf-spectacular's generator keeps its state on shared objects
    while it walks the views, and two requests building the schema at once answered 500 (API clients starting
    together: tests/api/test_schemathesis.py)."""

    _building = threading.Lock()
    schema = None  # the schema's own URL is not an operation of the API (as drf-spectacular's view leaves itself out)

    def get(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        with self._building:
            return super().get(request, *args, **kwargs)
