"""The figures a benchmark report gives of one seat's play (`registry.SeatFigures`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.kit.voting import vote_accuracy
from app.games.undercover.state import MatchState


def seat_figures(state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """`vote_accuracy`: for a civilian seat, the share of its votes (`vote_cast`) that named a seat of another role
    (an undercover or a blank); left out for the other roles and for a civilian that never voted."""
    roles = {p.seat: p.role for p in state.players}
    return vote_accuracy(roles, seat, events, "civilian", lambda role: role not in (None, "civilian"))
