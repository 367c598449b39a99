"""The waiting room both games share: who may join, the room's first events, and abort."""

from __future__ import annotations

from typing import Any

from app.games.base import ABORT_SUMMARIES, AbortReason, GameError
from app.games.common.table import Table, TableStep


def announce(step: TableStep, config: dict[str, Any], host_name: str, host_display_name: str) -> None:
    """The events of a new room: `match_created` (with the dumped config) and the host's `player_joined`."""
    step.emit("match_created", "public", config=config,
              players=[{"seat": 0, "name": host_name, "display_name": host_display_name}])
    step.emit("player_joined", "public", seat=0, name=host_name, display_name=host_display_name)


def check_join(state: Table, name: str, display_name: str) -> int:
    """The seat a joining player gets; raises when the room is not open to this player."""
    if state.status == "in_progress":
        raise GameError("match_full", "every seat is taken", status=state.status)
    if state.status != "waiting":
        raise GameError("match_not_waiting", "the match is not waiting for players", status=state.status)
    if not name.strip() or not display_name.strip():
        raise GameError("bad_request", "name and display_name must not be empty")
    if any(p.name == name for p in state.players):
        raise GameError("duplicate_player", "this player already has a seat", name=name)
    return len(state.players)


def abort(step: TableStep, reason: AbortReason) -> None:
    """Cancel a waiting room (the janitor, or a quick start's early end, may also clear a running one)."""
    state = step.state
    if state.status == "finished":
        raise GameError("match_finished", "the match is over")
    if state.status != "waiting" and reason == "host_cancelled":
        raise GameError("match_not_waiting", "only a waiting match can be cancelled", status=state.status)
    state.status = state.phase = "aborted"
    state.current_speaker_seat = None
    state.pending = []
    step.stop_clock()
    state.result = {"winner_camp": None, "reason": reason, "summary": ABORT_SUMMARIES[reason]}
    step.emit("match_aborted", "public", reason=reason)
