"""What the shared rules need of a game's state and step, as Protocols (any game's types fit)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from app.games.base import MatchStatus


class Seat(Protocol):
    """One seat at the table."""

    @property
    def name(self) -> str: ...

    @property
    def alive(self) -> bool: ...


class TieBreakConfig(Protocol):
    """A config with a `tie_break` rule (random, revote or noop_then_random)."""

    @property
    def tie_break(self) -> str: ...


class Table(Protocol):
    """The parts of a match state the lobby and the vote share."""

    status: MatchStatus
    phase: str
    current_speaker_seat: int | None
    pending: list[Any]
    result: dict[str, Any] | None
    votes: dict[int, int]
    pk: bool
    pk_candidates: list[int]
    noop_streak: int
    round_index: int
    deadline_ts: int | None

    @property
    def players(self) -> Sequence[Seat]: ...

    @property
    def config(self) -> TieBreakConfig: ...

    def living_seats(self) -> list[int]: ...


class TableStep(Protocol):
    """The working copy of one command: its state, events and random source."""

    @property
    def state(self) -> Table: ...

    def emit(self, type_: str, visibility: str, **fields: Any) -> dict[str, Any]: ...

    def rng(self, purpose: str) -> random.Random: ...

    def stop_clock(self) -> None: ...
