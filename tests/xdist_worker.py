"""Loaded first in every pytest process (`-p tests.xdist_worker`, pyproject.toml), before Django's settings: under
pytest-xdist, each worker gets its own Redis database and channel-layer prefix, as pytest-django gives it its own
test database (test_catan_gw0, ...). Redis Pub/Sub is not per database: without the prefix, two workers' games
with the same id would hear each other's moves."""

from __future__ import annotations

import os
import re

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # set by xdist before the worker reads its configuration

if WORKER and os.environ.get("REDIS_URL"):
    number = int(re.sub(r"\D", "", WORKER) or 0)
    base = re.sub(r"/\d*$", "", os.environ["REDIS_URL"])
    os.environ["REDIS_URL"] = f"{base}/{number + 1}"  # db 0 stays the controller's
    os.environ["CHANNEL_LAYER_PREFIX"] = f"asgi-{WORKER}"
