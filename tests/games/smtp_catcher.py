"""An SMTP catcher for tests, run as its own process: `python -m tests.games.smtp_catcher PORT DIRECTORY [DELAY]`.
Each message it accepts is written to DIRECTORY as one .eml file (whole, or not at all), DELAY seconds after
its data arrived. Stopped by its PID (tests/games/private_services.py: SmtpCatcher)."""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
import time
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller


class Keep:
    def __init__(self, directory: Path, delay: float) -> None:
        self.directory = directory
        self.delay = delay
        self.numbers = itertools.count()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's hook)
        if self.delay:
            await asyncio.sleep(self.delay)
        name = f"{time.time_ns()}-{os.getpid()}-{next(self.numbers):06d}"
        partial = self.directory / f"{name}.part"
        partial.write_bytes(envelope.content)
        partial.rename(self.directory / f"{name}.eml")
        return "250 OK"


def main() -> None:
    port, directory = int(sys.argv[1]), Path(sys.argv[2])
    delay = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    controller = Controller(Keep(directory, delay), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
