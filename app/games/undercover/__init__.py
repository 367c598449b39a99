"""谁是卧底 (Who is the Undercover): the pure rules engine. The rules are written out in the README (section "Rules").

The protocol layer reaches it through `game.UndercoverGame` (registered by `app.games.installed`).
"""

from __future__ import annotations

from app.games.undercover.actions import parse_action
from app.games.undercover.commands import (
    Abort,
    Command,
    Concede,
    GuessWord,
    Join,
    LastWords,
    Skip,
    Speak,
    Timeout,
    Vote,
    Whisper,
)
from app.games.undercover.config import UndercoverConfig, parse_config
from app.games.undercover.rules import apply, new_match
from app.games.undercover.state import (
    MatchState,
    Player,
    RevealAction,
    Timer,
    WordPair,
    state_from_json,
    state_to_json,
)
from app.games.undercover.step import Outcome
from app.games.undercover.view import (
    next_action,
    players_view,
    public_fields,
    role_set,
    wordpair,
    you_view,
)

__all__ = [
    "Abort",
    "Command",
    "Concede",
    "GuessWord",
    "Join",
    "LastWords",
    "MatchState",
    "Outcome",
    "Player",
    "RevealAction",
    "Skip",
    "Speak",
    "Timeout",
    "Timer",
    "UndercoverConfig",
    "Vote",
    "Whisper",
    "WordPair",
    "apply",
    "new_match",
    "next_action",
    "parse_action",
    "parse_config",
    "players_view",
    "public_fields",
    "role_set",
    "state_from_json",
    "state_to_json",
    "wordpair",
    "you_view",
]
