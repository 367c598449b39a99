"""The figures a benchmark report gives of one seat's play (`registry.SeatFigures`), as MIRAGE reports them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.script_kill.state import MatchState


def seat_figures(state: MatchState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """`culprit_rr`: for a seat that is not the culprit, the reciprocal rank of the culprit among the suspects its
    votes named, the last vote round first (1: its final vote named the culprit; 0: no vote of it did).
    `key_clues_found`: the share of the script's key clues this seat found or was shown."""
    player = state.seat(seat)
    if player is None or player.character is None:
        return {}
    script = state.script
    keys = {k.id for k in script.clues if k.is_key}
    figures = {"key_clues_found": len(keys & set(player.clues)) / len(keys)} if keys else {}
    culprit = next((p.seat for p in state.players if p.character == script.culprit), None)
    if culprit is None or culprit == seat:
        return figures
    ranked: list[int] = []
    for tally in reversed(state.tally):
        target = tally["votes"].get(str(seat))
        if target is not None and target not in ranked:
            ranked.append(target)
    figures["culprit_rr"] = 1 / (ranked.index(culprit) + 1) if culprit in ranked else 0.0
    return figures
