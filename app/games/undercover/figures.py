"""The figures a benchmark report gives of one seat's play (`registry.SeatFigures`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.undercover.state import MatchState


def seat_figures(state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """`vote_accuracy`: for a civilian seat, the share of its votes (`vote_cast`) that named a seat of another role
    (an undercover or a blank); left out for the other roles and for a civilian that never voted."""
    roles = {p.seat: p.role for p in state.players}
    if roles.get(seat) != "civilian":
        return {}
    targets = [int(e["target_seat"]) for e in events
               if e.get("type") == "vote_cast" and e.get("seat") == seat and e.get("target_seat") is not None]
    if not targets:
        return {}
    found = [t for t in targets if roles.get(t) not in (None, "civilian")]
    return {"vote_accuracy": len(found) / len(targets)}
