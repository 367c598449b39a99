"""One command's application: a private copy of the state, the events it produces, its clock and its reply."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from app.games.base import Event
from app.games.kit.state import Timer


class Clocked(Protocol):
    """A state that numbers its events, carries its seed, and runs one public clock with its timer."""

    seed: int
    seq: int
    deadline_at: float | None
    deadline_ts: int | None
    timer: Timer | None
    timer_tokens: int


StateT = TypeVar("StateT", bound=Clocked)


class Step(Generic[StateT]):
    """The working copy the rules change (the caller's state is never touched) and the events they emit."""

    def __init__(self, state: StateT, now: float, **context: Any) -> None:
        self.state = state
        self.now = now
        self.context = context
        """What the caller passed besides the state and the time (`KitGame.apply`'s `context`)."""
        self.events: list[Event] = []
        self.reply: dict[str, Any] | None = None
        self.command: object = None
        """The command being applied (set by the kit's `apply`)."""

    def emit(self, type_: str, visibility: str = "public", **fields: Any) -> Event:
        """Append an event with the next `seq`."""
        self.state.seq += 1
        event = {"seq": self.state.seq, "type": type_, "visibility": visibility, **fields, "ts": self.now}
        self.events.append(event)
        return event

    def rng(self, purpose: str) -> random.Random:
        """A random source fixed by (seed, seq, purpose): the same game replays identically."""
        return random.Random(f"{self.state.seed}:{self.state.seq}:{purpose}")

    def start_clock(self, seconds: float, kind: str, warning: str | None = None) -> int:
        """The public deadline `seconds` from now and its timer `kind` (with `warning`: a `warning` timer halfway
        first, whose handler arms `kind` at the deadline); returns `deadline_ts`."""
        self.state.deadline_at = self.now + seconds
        self.state.deadline_ts = math.ceil(self.state.deadline_at)
        if warning is None:
            self.arm(kind, self.state.deadline_at)
        else:
            self.arm(warning, self.now + seconds / 2)
        return self.state.deadline_ts

    def arm(self, kind: str, due: float) -> None:
        """Replace the timer; the new token makes every older Timeout stale."""
        self.state.timer_tokens += 1
        self.state.timer = Timer(due=due, kind=kind, token=self.state.timer_tokens)

    def stop_clock(self) -> None:
        """No deadline and no timer (a phase that waits for nobody, or the end)."""
        self.state.deadline_at = None
        self.state.deadline_ts = None
        self.state.timer = None


OutT = TypeVar("OutT")


@dataclass(frozen=True)
class Outcome(Generic[OutT]):
    """What a command produced: the new state, the events to append, and a read-only command's reply."""

    state: OutT
    events: list[Event]
    reply: dict[str, Any] | None = field(default=None)
