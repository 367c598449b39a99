"""The commands both games accept in the same shape and meaning (each game's `commands` adds its own)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from app.games.base import AbortReason


class GameCommand(BaseModel):
    """A command the rules accept: frozen, strict, no unknown fields."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


class Vote(GameCommand):
    """A living seat votes to send another out."""

    type: Literal["vote"] = "vote"
    seat: int
    target_seat: int
    comment: str | None = None
    analysis: dict[str, Any] | None = None


class Concede(GameCommand):
    """A living seat leaves the game and reveals its role."""

    type: Literal["concede"] = "concede"
    seat: int


class Abort(GameCommand):
    """The host cancels a waiting room, the janitor clears a stale one, or a quick start whose person has gone
    ends early (`AbortReason`)."""

    type: Literal["abort"] = "abort"
    reason: AbortReason


class Timeout(GameCommand):
    """The scheduler fires the timer whose token it read from the state."""

    type: Literal["timeout"] = "timeout"
    token: int


class TakeOver(GameCommand):
    """From now on the official bot plays `seat` (the services send it after too many timeouts in a row)."""

    type: Literal["take_over"] = "take_over"
    seat: int
