"""One application of a command: a private copy of the state plus the events it produces."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.games.common.step import EventStep
from app.games.undercover.state import MatchState, Timer, TimerKind


class Step(EventStep[MatchState]):
    """The working copy the phase modules change; the caller's state is never touched."""

    def __init__(self, state: MatchState, now: float, pairs: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(state, now)
        self.pairs = pairs

    def start_clock(self, seconds: int, warning: TimerKind | None, expire: TimerKind) -> int:
        """Set the public deadline `seconds` from now and arm the first timer; return deadline_ts."""
        self.state.deadline_at = self.now + seconds
        self.state.deadline_ts = math.ceil(self.state.deadline_at)
        if warning is None:
            self.arm(expire, self.state.deadline_at)
        else:
            self.arm(warning, self.now + seconds / 2)
        return self.state.deadline_ts

    def arm(self, kind: TimerKind, due: float) -> None:
        """Replace the timer; the new token makes every older Timeout stale."""
        self.state.timer_tokens += 1
        self.state.timer = Timer(due=due, kind=kind, token=self.state.timer_tokens)

    def stop_clock(self) -> None:
        """No deadline and no timer (a phase that waits for nobody, or the end)."""
        self.state.deadline_at = None
        self.state.deadline_ts = None
        self.state.timer = None


@dataclass(frozen=True)
class Outcome:
    """What a command produced: a new state and the events to append to the log."""

    state: MatchState
    events: list[dict[str, Any]]
