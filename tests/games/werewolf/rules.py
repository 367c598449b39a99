"""The werewolf rules as the tests drive them: the commands by name (`tests.games.legacy`), and `apply` /
`new_match` / the views over `app.games.werewolf.game.GAME`."""

from __future__ import annotations

from typing import Any

from app.games.kit import Abort, Command, Concede, Join, Outcome, TakeOver, Timeout
from app.games.kit.game import parse_config as kit_parse_config
from app.games.werewolf.commands import NightActionName
from app.games.werewolf.config import WerewolfConfig
from app.games.werewolf.game import GAME
from app.games.werewolf.state import MatchState
from app.games.werewolf.view import god_fields, next_action, public_fields
from tests.games.legacy import Commands

COMMANDS = Commands(GAME, {"night_action": ("action", "target_seat", "analysis"), "speak": ("text", "analysis"),
                           "skip": (), "vote": ("target_seat", "comment", "analysis"),
                           "whisper": ("target_seat", "text"), "last_words": ("text",), "shoot": ("target_seat",)})
NightAction, Speak, Skip = COMMANDS.factory("night_action"), COMMANDS.factory("speak"), COMMANDS.factory("skip")
Vote, Whisper, LastWords = COMMANDS.factory("vote"), COMMANDS.factory("whisper"), COMMANDS.factory("last_words")
Shoot = COMMANDS.factory("shoot")
parse_command = GAME.parse_action
ACTIONS = GAME.actions


def parse_config(raw: Any) -> WerewolfConfig:
    """The config model validates `raw` (`invalid_config` naming the first bad field otherwise)."""
    return kit_parse_config(WerewolfConfig, raw)


def apply(state: MatchState, command: Command, *, now: float) -> Outcome[MatchState]:
    return GAME.apply(state, command, now=now)


def new_match(config: WerewolfConfig, host_name: str, host_display_name: str, seed: int,
              now: float) -> Outcome[MatchState]:
    return GAME.new_match(config, host_name, host_display_name, seed=seed, now=now)


def you_view(state: MatchState, seat: int) -> dict[str, Any]:
    return GAME.you_view(state, seat)


def role_set(state: MatchState, seat: int) -> frozenset[str]:
    return GAME.role_set(state, seat)


def state_to_json(state: MatchState) -> dict[str, Any]:
    return GAME.state_to_json(state)


def state_from_json(data: dict[str, Any]) -> MatchState:
    return GAME.state_from_json(data)


def players_view(state: MatchState, *, god: bool) -> list[dict[str, Any]]:
    return GAME.players_view(state, god=god)


__all__ = ["ACTIONS", "COMMANDS", "Abort", "Command", "Concede", "Join", "LastWords", "MatchState", "NightAction",
           "NightActionName", "Shoot", "Skip", "Speak", "TakeOver", "Timeout", "Vote", "WerewolfConfig", "Whisper",
           "apply", "god_fields", "new_match", "next_action", "parse_command", "parse_config", "players_view",
           "public_fields", "role_set", "state_from_json", "state_to_json", "you_view"]
