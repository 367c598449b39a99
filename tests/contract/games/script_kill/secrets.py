"""Script_kill's secrecy while the match runs: no viewer reads another character's script or secret, the hands or
(before the review) the culprit and the tally."""

from __future__ import annotations

import json
from typing import Any

from app.games.script_kill.state import MatchState


def secrets(state: MatchState, seat: int | None, snap: dict[str, Any]) -> None:
    assert "hands" not in snap
    if state.phase != "review":  # the ending names the culprit and the tally publicly
        assert not {"culprit", "tally"} & snap.keys()
    own = state.players[seat].character if seat is not None else None
    text = json.dumps(snap, ensure_ascii=False)
    for p in state.players:
        if p.character is not None and p.character != own:
            c = state.script.character(p.character)
            assert c.script not in text and c.secret not in text, (seat, p.seat)
