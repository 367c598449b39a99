"""Werewolf's secrecy while the match runs: no row or event tells a viewer a living seat's card it may not know
(its own; the pack, for a wolf; the camps she checked, for the seer)."""

from __future__ import annotations

from typing import Any

from app.games.werewolf.state import MatchState
from tests.games.werewolf.test_properties import CARD_KEYS, claims, knows


def secrets(state: MatchState, seat: int | None, snap: dict[str, Any]) -> None:
    assert "roles" not in snap and "night_actions" not in snap
    for row in snap["players"]:
        if state.players[row["seat"]].alive and row["seat"] != seat:
            assert not set(CARD_KEYS) & row.keys(), row
    seen = snap["public_log"] + (snap["you"]["private_log"] if seat is not None else [])
    for event in seen:
        for subject, kind in claims(event):
            assert subject >= 0, event
            allowed = not state.players[subject].alive or (seat is not None and knows(state, seat, subject, kind))
            assert allowed, (seat, event)
    if seat is not None:
        assert snap["you"]["role"] == state.players[seat].role
