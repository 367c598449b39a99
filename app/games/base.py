"""What every game shares with the protocol layer, without importing it."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """A command the rules refuse. `code` is a protocol error code (e.g. `wrong_phase`)."""

    def __init__(self, code: str, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
