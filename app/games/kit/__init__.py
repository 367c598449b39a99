"""The game kit: a game declares one definition (`GameDef`), the kit builds the `Game` the services call.

Only `app/games` imports it; see docs/design/seam.md.
"""

from app.games.kit.commands import Abort, Act, Command, Concede, Join, Request, TakeOver, Timeout
from app.games.kit.definition import (
    Action,
    GameDef,
    PresetForm,
    QuickStart,
    Rewrite,
    own_checks,
    pace_options,
    parse_choices,
    preset_config,
)
from app.games.kit.game import KitGame, build
from app.games.kit.state import KitSeat, KitState, RoundSeat, RoundState, Timer, camp_outcome
from app.games.kit.step import Outcome, Step
from app.games.kit.turns import SpeakRound

__all__ = ["Abort", "Act", "Action", "Command", "Concede", "GameDef", "Join", "KitGame", "KitSeat", "KitState",
           "Outcome", "PresetForm", "QuickStart", "Request", "Rewrite", "RoundSeat", "RoundState",
           "SpeakRound", "Step", "TakeOver", "Timeout", "Timer", "build", "camp_outcome", "own_checks",
           "pace_options", "parse_choices", "preset_config"]
