"""This game's own preconditions (the shared ones are in `app.games.kit.checks`); each raises an error code."""

from __future__ import annotations

import json
from typing import Any

from app.games.base import GameError
from app.games.kit.checks import MAX_ANALYSIS_BYTES, require_in_progress, require_living, require_stage
from app.games.werewolf.commands import NightActionRequest
from app.games.werewolf.config import Role
from app.games.werewolf.state import MatchState, Player

NIGHT_ACTIONS: dict[Role, frozenset[str]] = {
    "werewolf": frozenset({"kill", "pass"}),
    "seer": frozenset({"check", "pass"}),
    "guard": frozenset({"guard", "pass"}),
    "witch": frozenset({"save", "poison", "pass"}),
}


def require_target(seat: int | None, allowed: list[int]) -> int:
    """`seat` must be one of `allowed`."""
    if seat is None or seat not in allowed:
        raise GameError("invalid_target", "you cannot name that seat", target_seat=seat, eligible_targets=allowed)
    return seat


def check_analysis(analysis: dict[str, Any] | None) -> dict[str, Any] | None:
    """An optional JSON object of at most 4 KB, without NUL characters."""
    if analysis is None:
        return None
    try:
        text = json.dumps(analysis, ensure_ascii=False)
    except (TypeError, ValueError):
        raise GameError("bad_request", "analysis must be JSON", field="analysis") from None
    if "\\u0000" in text:
        raise GameError("bad_request", "analysis must not contain NUL characters", field="analysis")
    if len(text.encode()) > MAX_ANALYSIS_BYTES:
        raise GameError("bad_request", "analysis is larger than 4 KB", field="analysis")
    return analysis


def require_night_actor(state: MatchState, seat: int, cmd: NightActionRequest) -> Player:
    """The checks every night action shares, in an order that is no oracle for anyone else's role."""
    require_in_progress(state)
    player = require_living(state, seat)
    require_stage(state, "night")
    assert player.role is not None
    if cmd.action not in NIGHT_ACTIONS.get(player.role, frozenset()):
        raise GameError("not_your_night_role", f"a {player.role} cannot {cmd.action}", role=player.role)
    return player
