"""Preconditions the games share; each raises the protocol's error code."""

from __future__ import annotations

import unicodedata
from typing import Any, Protocol, TypeVar

from app.games.base import GameError, MatchStatus
from app.games.kit.table import Seat

MAX_TEXT = 500
MAX_ANALYSIS_BYTES = 4096

SeatT = TypeVar("SeatT", bound=Seat, covariant=True)


class Seats(Protocol[SeatT]):
    """A state whose seats can be looked up, with its status and phase."""

    @property
    def status(self) -> MatchStatus: ...

    @property
    def phase(self) -> str: ...

    @property
    def stage(self) -> str: ...

    def seat(self, seat: int) -> SeatT | None: ...


def require_seat(state: Seats[SeatT], seat: int) -> SeatT:
    """The acting player; a seat outside the table is not in the match."""
    player = state.seat(seat)
    if player is None:
        raise GameError("agent_not_in_match", f"there is no seat {seat}", seat=seat)
    return player


def require_in_progress(state: Seats[Seat], *, waiting_code: str = "wrong_phase") -> None:
    """The match must be running; a waiting room answers `waiting_code`."""
    if state.status in ("finished", "aborted"):
        raise GameError("match_finished", "the match is over", status=state.status)
    if state.status == "waiting":
        raise GameError(waiting_code, "the match has not started", phase=state.phase)


def require_living(state: Seats[SeatT], seat: int) -> SeatT:
    """The acting player, who must still be in the game."""
    player = require_seat(state, seat)
    if not player.alive:
        raise GameError("you_are_eliminated", "eliminated players can only watch", seat=seat)
    return player


def require_stage(state: Seats[Seat], stage: str) -> None:
    """The current phase must be `stage` (the phase name without its round number)."""
    if state.stage != stage:
        raise GameError("wrong_phase", f"this action needs a {stage} phase", phase=state.phase)


def clean_text(text: str, field: str = "text") -> str:
    """Stripped text with something visible in it, at most 500 characters, without NUL (which no JSON column of
    PostgreSQL stores)."""
    text = text.strip()
    if not any(unicodedata.category(ch)[0] not in "CZ" for ch in text):  # empty, or only invisible characters
        raise GameError("bad_request", f"{field} must not be empty", field=field)
    if "\x00" in text:
        raise GameError("bad_request", f"{field} must not contain NUL characters", field=field)
    if len(text) > MAX_TEXT:
        raise GameError("text_too_long", f"{field} is longer than {MAX_TEXT} characters",
                        field=field, limit=MAX_TEXT, length=len(text))
    return text


def is_private(analysis: dict[str, Any] | None) -> bool:
    """`analysis.private = true` keeps the analysis out of the public event."""
    return analysis is not None and analysis.get("private") is True
