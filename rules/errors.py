"""The one error the engine raises for anything a player may not do."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action refused by the rules. `code` is machine-readable, `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
