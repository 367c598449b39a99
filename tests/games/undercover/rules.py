"""The undercover rules as the tests drive them: the commands by name (`tests.games.legacy`), and `apply` /
`new_match` / the views over `app.games.undercover.game.GAME` (a test passes the deal's word pairs)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.games.kit import Abort, Command, Concede, Join, Outcome, TakeOver, Timeout
from app.games.kit.game import parse_config as kit_parse_config
from app.games.undercover.config import UndercoverConfig
from app.games.undercover.game import GAME
from app.games.undercover.state import MatchState, Player, RevealAction, WordPair
from app.games.undercover.view import next_action, public_fields, wordpair
from tests.games.legacy import Commands

COMMANDS = Commands(GAME, {"speak": ("text", "analysis"), "skip": (), "vote": ("target_seat", "comment", "analysis"),
                           "whisper": ("target_seat", "text"), "last_words": ("text",), "guess_word": ("word",),
                           "debate": ("text",), "debate_pass": ()})
Speak, Skip, Vote = COMMANDS.factory("speak"), COMMANDS.factory("skip"), COMMANDS.factory("vote")
Whisper, LastWords = COMMANDS.factory("whisper"), COMMANDS.factory("last_words")
GuessWord, Debate, DebatePass = COMMANDS.factory("guess_word"), COMMANDS.factory("debate"), COMMANDS.factory(
    "debate_pass")


def parse_config(raw: Any) -> UndercoverConfig:
    """The config model validates `raw` (`invalid_config` naming the first bad field otherwise)."""
    return kit_parse_config(UndercoverConfig, raw)


def apply(state: MatchState, command: Command, *, now: float,
          pairs: Sequence[tuple[str, str]] | None = None) -> Outcome[MatchState]:
    """`GAME.apply_with`; `pairs` (when given) are the deal's candidate word pairs instead of the library's."""
    context: dict[str, Any] = {} if pairs is None else {"pairs": pairs}
    return GAME.apply_with(state, command, now=now, **context)


def new_match(config: UndercoverConfig, host_name: str, host_display_name: str, seed: int,
              now: float) -> Outcome[MatchState]:
    return GAME.new_match(config, host_name, host_display_name, seed=seed, now=now)


def allowed_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    return GAME.allowed_actions(state, seat)


def you_view(state: MatchState, seat: int) -> dict[str, Any]:
    return GAME.you_view(state, seat)


def players_view(state: MatchState, *, god: bool) -> list[dict[str, Any]]:
    return GAME.players_view(state, god=god)


def role_set(state: MatchState, seat: int) -> frozenset[str]:
    return GAME.role_set(state, seat)


def state_to_json(state: MatchState) -> dict[str, Any]:
    return GAME.state_to_json(state)


def state_from_json(data: dict[str, Any] | str) -> MatchState:
    return GAME.state_from_json(json.loads(data) if isinstance(data, str) else data)


__all__ = ["COMMANDS", "Abort", "Command", "Concede", "Debate", "DebatePass", "GuessWord", "Join", "LastWords",
           "MatchState", "Player", "RevealAction", "Skip", "Speak", "TakeOver", "Timeout", "UndercoverConfig", "Vote",
           "Whisper", "WordPair", "allowed_actions", "apply", "new_match", "next_action", "parse_config",
           "players_view", "public_fields", "role_set", "state_from_json", "state_to_json", "wordpair", "you_view"]
