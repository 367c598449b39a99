"""One application of a command (the kit's `Step`): every event carries the round and a seat, the stage clock, and
the DM's private notices."""

from __future__ import annotations

from typing import Any

from app.games.base import Event
from app.games.kit import Step as KitStep
from app.games.script_kill.state import MatchState

STAGE_EXPIRE = "stage_expire"


class Step(KitStep[MatchState]):
    """The working copy the stage and action modules change; the caller's state is never touched."""

    def emit(self, type_: str, visibility: str = "public", **fields: Any) -> Event:
        """Append an event; every event carries `round` (0, 1, 2) and `seat` (None: the DM's own)."""
        fields.setdefault("round", self.state.round_no)
        fields.setdefault("seat", None)
        return super().emit(type_, visibility, **fields)

    def stage_clock(self, seconds: int) -> None:
        """The stage's public deadline `seconds` from now, and its timer."""
        self.start_clock(seconds, STAGE_EXPIRE)

    def dm(self, seat: int, text: str, **fields: Any) -> None:
        """A DM line for one seat only (a non-error notice, e.g. a search that found nothing)."""
        self.emit("dm_notice", f"private:seat:{seat}", seat=seat, text=text, **fields)
