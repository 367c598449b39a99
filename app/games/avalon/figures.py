"""The figures a benchmark report gives of one seat's play (`registry.SeatFigures`): shares of its own play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.avalon.state import State


def seat_figures(state: State, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """`vote_accuracy`: the share of the seat's votes that served its side (a good seat approving a team without
    an evil seat or rejecting one with, an evil seat the other way round). `clean_teams`: for a good seat, the
    share of the teams it proposed (itself, not by the clock) that held no evil seat."""
    player = state.seat(seat)
    if player is None or player.role is None:
        return {}
    evil = state.evil(seat)
    right = total = 0
    for p in state.proposals:
        choice = p["votes"].get(str(seat))
        if choice is None:
            continue
        dirty = any(state.evil(s) for s in p["team"])
        total += 1
        right += (choice == "approve") == (dirty == evil)
    figures = {"vote_accuracy": right / total} if total else {}
    mine = [e["team"] for e in events if e.get("type") == "team_proposed" and e.get("seat") == seat
            and not e.get("auto")]
    if mine and not evil:
        figures["clean_teams"] = sum(not any(state.evil(s) for s in team) for team in mine) / len(mine)
    return figures
