"""The one application error: a machine code, a readable message and the HTTP status it maps to."""

from __future__ import annotations


class GameError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, extra: dict | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = str(message)
        self.status = status
        self.extra = extra or {}

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, **self.extra}
