"""One application of a command: a private copy of the state, the events it produces, and a read-only reply."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from app.games.common.step import EventStep
from app.games.script_kill.state import MatchState, Timer


class Step(EventStep[MatchState]):
    """The working copy the stage and action modules change; the caller's state is never touched."""

    def __init__(self, state: MatchState, now: float) -> None:
        super().__init__(state, now)
        self.reply: dict[str, Any] | None = None

    def emit(self, type_: str, visibility: str, **fields: Any) -> dict[str, Any]:
        """Append an event; every event carries `round` (0, 1, 2) and `seat` (None: the DM's own)."""
        fields.setdefault("round", self.state.round_no)
        fields.setdefault("seat", None)
        return super().emit(type_, visibility, **fields)

    def start_clock(self, seconds: int) -> None:
        """The stage's public deadline `seconds` from now, and its timer."""
        self.state.deadline_at = self.now + seconds
        self.state.deadline_ts = math.ceil(self.state.deadline_at)
        self.state.timer_tokens += 1
        self.state.timer = Timer(due=self.state.deadline_at, kind="stage_expire", token=self.state.timer_tokens)

    def stop_clock(self) -> None:
        self.state.deadline_at = None
        self.state.deadline_ts = None
        self.state.timer = None

    def dm(self, seat: int, text: str, **fields: Any) -> None:
        """A DM line for one seat only (a non-error notice, e.g. a search that found nothing)."""
        self.emit("dm_notice", f"private:seat:{seat}", seat=seat, text=text, **fields)


@dataclass(frozen=True)
class Outcome:
    """What a command produced: a new state, the events to append, and (read-only commands) the reply payload that
    the action's answer carries."""

    state: MatchState
    events: list[dict[str, Any]]
    reply: dict[str, Any] | None = field(default=None)
