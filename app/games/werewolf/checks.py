"""Preconditions shared by the phases; each raises the protocol's (or this game's) error code."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from app.games.base import GameError
from app.games.werewolf.commands import NightAction
from app.games.werewolf.config import Role
from app.games.werewolf.state import MatchState, Player

MAX_TEXT = 500
MAX_ANALYSIS_BYTES = 4096
NIGHT_ACTIONS: dict[Role, frozenset[str]] = {
    "werewolf": frozenset({"kill", "pass"}),
    "seer": frozenset({"check", "pass"}),
    "guard": frozenset({"guard", "pass"}),
    "witch": frozenset({"save", "poison", "pass"}),
}


def require_seat(state: MatchState, seat: int) -> Player:
    """The acting player; a seat outside the table is not in the match."""
    player = state.seat(seat)
    if player is None:
        raise GameError("agent_not_in_match", f"there is no seat {seat}", seat=seat)
    return player


def require_in_progress(state: MatchState, *, waiting_code: str = "wrong_phase") -> None:
    """The match must be running; a waiting room answers `waiting_code`."""
    if state.status in ("finished", "aborted"):
        raise GameError("match_finished", "the match is over", status=state.status)
    if state.status == "waiting":
        raise GameError(waiting_code, "the match has not started", phase=state.phase)


def require_living(state: MatchState, seat: int) -> Player:
    """The acting player, who must still be in the game."""
    player = require_seat(state, seat)
    if not player.alive:
        raise GameError("you_are_eliminated", "eliminated players can only watch", seat=seat)
    return player


def require_stage(state: MatchState, stage: str) -> None:
    """The current phase must be `stage` (night, speak, vote, hunter, last_words)."""
    if state.stage != stage:
        raise GameError("wrong_phase", f"this action needs a {stage} phase", phase=state.phase)


def require_target(seat: int | None, allowed: list[int]) -> int:
    """`seat` must be one of `allowed`."""
    if seat is None or seat not in allowed:
        raise GameError("invalid_target", "you cannot name that seat", target_seat=seat, eligible_targets=allowed)
    return seat


def clean_text(text: str, field: str = "text") -> str:
    """Stripped text with something visible in it, at most 500 characters, without NUL."""
    text = text.strip()
    if not any(unicodedata.category(ch)[0] not in "CZ" for ch in text):
        raise GameError("bad_request", f"{field} must not be empty", field=field)
    if "\x00" in text:
        raise GameError("bad_request", f"{field} must not contain NUL characters", field=field)
    if len(text) > MAX_TEXT:
        raise GameError("text_too_long", f"{field} is longer than {MAX_TEXT} characters",
                        field=field, limit=MAX_TEXT, length=len(text))
    return text


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


def is_private(analysis: dict[str, Any] | None) -> bool:
    """`analysis.private = true` keeps the analysis out of the public event."""
    return analysis is not None and analysis.get("private") is True


def public_analysis(analysis: dict[str, Any] | None) -> dict[str, Any]:
    """The `analysis` field for a public event: present only when there is one and it is not private."""
    return {"analysis": analysis} if analysis is not None and not is_private(analysis) else {}


def require_night_actor(state: MatchState, cmd: NightAction) -> Player:
    """The checks every night action shares, in an order that is no oracle for anyone else's role."""
    require_in_progress(state)
    player = require_living(state, cmd.seat)
    require_stage(state, "night")
    assert player.role is not None
    if cmd.action not in NIGHT_ACTIONS.get(player.role, frozenset()):
        raise GameError("not_your_night_role", f"a {player.role} cannot {cmd.action}", role=player.role)
    return player
