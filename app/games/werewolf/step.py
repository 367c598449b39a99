"""One application of a command: a private copy of the state plus the events it produces."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from app.games.common.step import EventStep
from app.games.werewolf.state import MatchState, Timer, TimerKind


class Step(EventStep[MatchState]):
    """The working copy the phase modules change; the caller's state is never touched."""

    def start_clock(self, seconds: int, expire: TimerKind) -> int:
        """Set the public deadline `seconds` from now and arm its timer; return deadline_ts."""
        self.state.deadline_at = self.now + seconds
        self.state.deadline_ts = math.ceil(self.state.deadline_at)
        self.state.timer_tokens += 1
        self.state.timer = Timer(due=self.state.deadline_at, kind=expire, token=self.state.timer_tokens)
        return self.state.deadline_ts

    def stop_clock(self) -> None:
        """No deadline and no timer (the end)."""
        self.state.deadline_at = None
        self.state.deadline_ts = None
        self.state.timer = None


@dataclass(frozen=True)
class Outcome:
    """What a command produced: a new state and the events to append to the log."""

    state: MatchState
    events: list[dict[str, Any]]
