"""Preconditions shared by the phases; each raises the protocol's error code."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from app.games.base import GameError
from app.games.undercover.leak import leaks
from app.games.undercover.state import MatchState, Player
from app.games.undercover.wordpairs import default_library

MAX_TEXT = 500
MAX_ANALYSIS_BYTES = 4096


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
    """The current phase must be `stage` (speak, vote or reveal)."""
    if state.stage != stage:
        raise GameError("wrong_phase", f"this action needs a {stage} phase", phase=state.phase)


def clean_text(text: str, field: str = "text") -> str:
    """Stripped text with something visible in it, at most 500 characters, without NUL (which no JSON column of
    PostgreSQL stores)."""
    text = text.strip()
    if not any(unicodedata.category(ch)[0] not in "CZ" for ch in text):  # empty, or only invisible characters
        raise GameError("bad_request", f"{field} must not be empty", field=field)
    if "\x00" in text:
        raise GameError("bad_request", f"{field} must not contain NUL characters", field=field)
    if len(text) > MAX_TEXT:
        raise GameError("text_too_long", f"{field} is longer than {MAX_TEXT} characters",
                        field=field, limit=MAX_TEXT, length=len(text))
    return text


def check_secret(player: Player, text: str) -> None:
    """Text must not spell the speaker's own word (a blank has none) by any rule of `leak.find_leak`;
    the English gloss comes from the pair library when the word is one of its words."""
    if player.word and leaks(text, player.word, gloss_of(player.word)):
        raise GameError("speech_contains_secret_word", "the text contains your own word")


def gloss_of(word: str) -> str | None:
    """The English gloss the pair library gives `word`, or None for a word it does not know."""
    found = default_library().find_word(word)
    return found.en if found else None


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _strings(value: Any, keys: list[str], values: list[str]) -> None:
    if isinstance(value, str):
        values.append(value)
    elif isinstance(value, dict):
        for key, child in value.items():
            keys.append(key)
            _strings(child, keys, values)
    elif isinstance(value, list):
        for child in value:
            _strings(child, keys, values)


def check_analysis(analysis: dict[str, Any] | None, player: Player) -> dict[str, Any] | None:
    """An optional JSON object of at most 4 KB. A public one is public text: none of its strings may contain the
    player's word (keys and values at any depth; the keys read together and the values read together, so a word
    split over two strings is caught too)."""
    if analysis is None:
        return None
    try:
        size = len(json.dumps(analysis, ensure_ascii=False).encode())
    except (TypeError, ValueError):
        raise GameError("bad_request", "analysis must be JSON", field="analysis") from None
    if _has_nul(analysis):
        raise GameError("bad_request", "analysis must not contain NUL characters", field="analysis")
    if size > MAX_ANALYSIS_BYTES:
        raise GameError("bad_request", "analysis is larger than 4 KB", field="analysis", size=size)
    if not is_private(analysis):
        keys: list[str] = []
        values: list[str] = []
        _strings(analysis, keys, values)
        check_secret(player, " ".join(keys))
        check_secret(player, " ".join(values))
    return analysis


def is_private(analysis: dict[str, Any] | None) -> bool:
    """`analysis.private = true` keeps the analysis out of the public event."""
    return analysis is not None and analysis.get("private") is True
