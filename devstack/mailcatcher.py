"""An SMTP catcher, run as its own process: `python -m devstack.mailcatcher PORT DIRECTORY [DELAY]`.

Each message it accepts is written to DIRECTORY as one .eml file (whole, or not at all), DELAY seconds after
its data arrived. `make run` sends the site's mail here and shows it on the local mailbox page (mailbox/); the
tests start it for themselves (tests/games/private_services.py: SmtpCatcher) and stop it by PID."""

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
    directory.mkdir(parents=True, exist_ok=True)
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
