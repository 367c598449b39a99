"""The event log of one command's application, shared by both games' `Step`."""

from __future__ import annotations

import random
from typing import Any, Generic, Protocol, TypeVar


class Seeded(Protocol):
    """A state that numbers its events and carries its random seed."""

    seed: int
    seq: int


StateT = TypeVar("StateT", bound=Seeded)


class EventStep(Generic[StateT]):
    """A private working copy of the state plus the events the command produces."""

    def __init__(self, state: StateT, now: float) -> None:
        self.state = state
        self.now = now
        self.events: list[dict[str, Any]] = []

    def emit(self, type_: str, visibility: str, **fields: Any) -> dict[str, Any]:
        """Append an event with the next `seq`."""
        self.state.seq += 1
        event = {"seq": self.state.seq, "type": type_, "visibility": visibility, **fields, "ts": self.now}
        self.events.append(event)
        return event

    def rng(self, purpose: str) -> random.Random:
        """A random source fixed by (seed, seq, purpose): the same game replays identically."""
        return random.Random(f"{self.state.seed}:{self.state.seq}:{purpose}")
