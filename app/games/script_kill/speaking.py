"""self_intro's floor: each seat introduces itself once, in seat order."""

from __future__ import annotations

from app.games.script_kill.state import MatchState
from app.games.script_kill.step import Step


def next_speaker(state: MatchState, after: int) -> int | None:
    """The first seat after `after` still at the table that has not introduced itself."""
    return next((p.seat for p in state.seated() if p.seat > after and not p.spoke), None)


def pass_floor(step: Step) -> None:
    """The floor goes to the next seat that has not introduced itself (None: everyone has)."""
    state = step.state
    state.speaker = next_speaker(state, state.speaker if state.speaker is not None else -1)
    if state.speaker is not None:
        step.emit("speaker_changed", "public", seat=state.speaker)
