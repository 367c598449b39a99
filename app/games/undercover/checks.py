"""This game's own preconditions (the shared ones are in `app.games.kit.checks`); each raises an error code."""

from __future__ import annotations

import json
from typing import Any

from app.games.base import GameError
from app.games.kit.checks import MAX_ANALYSIS_BYTES, is_private
from app.games.undercover.leak import leaks
from app.games.undercover.state import MatchState, Player
from app.games.undercover.wordpairs import default_library

SAID_KEPT = 2000  # characters of a seat's earlier texts of the round read with its next one


def check_said(state: MatchState, player: Player, text: str) -> None:
    """`check_secret` on the text, then on the seat's earlier public texts of this round read with it (a word split
    between a speech and a vote comment); on success the text joins them."""
    check_secret(player, text)
    earlier = state.said.get(player.seat)
    if earlier and player.word and leaks(f"{earlier}\n{text}", player.word, gloss_of(player.word)):
        raise GameError("speech_contains_secret_word", "the text contains your own word (read together with what "
                        "you said earlier this round)", split=True)


def remember_said(state: MatchState, seat: int, text: str) -> None:
    """Keep `text` with the seat's earlier public texts of this round."""
    joined = f"{state.said[seat]}\n{text}" if seat in state.said else text
    state.said[seat] = joined[-SAID_KEPT:]


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

