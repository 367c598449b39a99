"""Undercover's secrecy while the match runs: no viewer reads a word it was not dealt, nor a living seat's role."""

from __future__ import annotations

import json
from typing import Any

from app.games.undercover.state import MatchState


def secrets(state: MatchState, seat: int | None, snap: dict[str, Any]) -> None:
    assert "wordpair" not in snap
    assert all("role" not in row and "word" not in row for row in snap["players"])
    own = state.players[seat].word if seat is not None else None
    words = {w for w in (state.wordpair.civilian, state.wordpair.undercover) if w} if state.wordpair else set()
    rest = {k: v for k, v in snap.items() if k != "you"}
    text = json.dumps(rest, ensure_ascii=False)
    leaked = [w for w in words - {own} if w in text]
    assert not leaked, (seat, leaked)
