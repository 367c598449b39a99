"""狼人杀 (werewolf): the pure rules engine, reached by the protocol layer through `game.WerewolfGame`.

The rules, and every decision where issue 15 is silent, are written once in `docs/_shared/werewolf-rules.md`
(shown on the docs page `docs/games/werewolf.md` and in `werewolf-skill.md`); the config, actions and error codes
there are generated from this package (`python -m tools.docs`). Where to look in the code: `config` (presets,
`tie_break`, `win_rule`), `commands.ACTIONS`, `errors.ERRORS`, `view` (`you`, `next_action`), `snapshot`.
"""

from __future__ import annotations

from app.games.werewolf.commands import (
    Abort,
    Command,
    Concede,
    Join,
    LastWords,
    NightAction,
    Shoot,
    Skip,
    Speak,
    Timeout,
    Vote,
    Whisper,
    parse_command,
)
from app.games.werewolf.config import WerewolfConfig, parse_config
from app.games.werewolf.rules import apply, new_match
from app.games.werewolf.state import MatchState, Player, state_from_json, state_to_json
from app.games.werewolf.step import Outcome
from app.games.werewolf.view import next_action, players_view, public_fields, role_set, you_view

__all__ = [
    "Abort",
    "Command",
    "Concede",
    "Join",
    "LastWords",
    "MatchState",
    "NightAction",
    "Outcome",
    "Player",
    "Shoot",
    "Skip",
    "Speak",
    "Timeout",
    "Vote",
    "WerewolfConfig",
    "Whisper",
    "apply",
    "new_match",
    "next_action",
    "parse_command",
    "parse_config",
    "players_view",
    "public_fields",
    "role_set",
    "state_from_json",
    "state_to_json",
    "you_view",
]
