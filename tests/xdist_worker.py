"""Loaded first in every pytest process (`-p tests.xdist_worker`, pyproject.toml), before Django's settings: under
pytest-xdist, each worker gets its own Redis database and channel-layer prefix, as pytest-django gives it its own
test database (test_catan_gw0, ...). Redis Pub/Sub is not per database: without the prefix, two workers' games
with the same id would hear each other's moves."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # set by xdist before the worker reads its configuration

if WORKER and os.environ.get("REDIS_URL"):
    number = int(re.sub(r"\D", "", WORKER) or 0)
    base = re.sub(r"/\d*$", "", os.environ["REDIS_URL"])
    os.environ["REDIS_URL"] = f"{base}/{number + 1}"  # db 0 stays the controller's
    os.environ["CHANNEL_LAYER_PREFIX"] = f"asgi-{WORKER}"

# Static files: collected by this process alone (tests/games/servers.py), for its own servers and requests. The
# checkout's staticfiles/ is rewritten by `make run`'s test, and collectstatic deletes each hashed .js and .css
# file before writing it again: a WhiteNoise starting meanwhile on the same folder fails on a missing file.
os.environ["STATIC_ROOT"] = tempfile.mkdtemp(prefix=f"catan-static-{os.getpid()}-")
atexit.register(shutil.rmtree, os.environ["STATIC_ROOT"], ignore_errors=True)
