"""The figures a benchmark report gives of one seat's play (`registry.SeatFigures`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.kit.voting import vote_accuracy
from app.games.werewolf.state import MatchState


def seat_figures(state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """`vote_accuracy`: for a village seat, the share of its day votes (`vote_cast`) that named a wolf; left out for
    wolves and for a village seat that never voted."""
    camps: dict[int, str | None] = {p.seat: p.camp for p in state.players}
    return vote_accuracy(camps, seat, events, "village", lambda camp: camp == "werewolf")
