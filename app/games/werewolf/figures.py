"""The figures a benchmark report gives of one seat's play (`registry.SeatFigures`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.werewolf.state import MatchState


def seat_figures(state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """`vote_accuracy`: for a village seat, the share of its day votes (`vote_cast`) that named a wolf; left out for
    wolves and for a village seat that never voted."""
    camps = {p.seat: p.camp for p in state.players}
    if camps.get(seat) != "village":
        return {}
    targets = [int(e["target_seat"]) for e in events
               if e.get("type") == "vote_cast" and e.get("seat") == seat and e.get("target_seat") is not None]
    if not targets:
        return {}
    return {"vote_accuracy": sum(1 for t in targets if camps.get(t) == "werewolf") / len(targets)}
