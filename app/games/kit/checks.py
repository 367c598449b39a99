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


def require_whisper(state: Any, seat: int, role: str, target: int, text: str, *,
                    stage: str | None = None) -> tuple[Any, str]:
    """A whisper's checks, in an order that is no oracle for anyone's role: the match runs (a waiting room answers
    `match_not_in_progress`), the room allows whispers, the sender is in the game (with `stage`: and it is that
    stage), the text; then the sender must hold `role` and `target` be another living seat holding it, else
    `whisper_target_not_fellow` whatever the target. Returns the sender and the cleaned text."""
    require_in_progress(state, waiting_code="match_not_in_progress")
    if not state.config.allow_whisper:
        raise GameError("whisper_not_enabled", "whispers are off in this match")
    sender = require_living(state, seat)
    if stage is not None:
        require_stage(state, stage)
    text = clean_text(text)
    if sender.role != role or target not in [s for s in state.alive_with(role) if s != seat]:
        raise GameError("whisper_target_not_fellow", "you can only whisper to a living fellow")
    return sender, text


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
