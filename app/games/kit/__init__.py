"""The game kit: a game declares one definition (`GameDef`), the kit builds the `Game` the services call.

Only `app/games` imports it; see docs/design/seam.md.
"""

from app.games.kit.commands import Act, Command, Request
from app.games.kit.definition import Action, GameDef
from app.games.kit.game import KitGame, build
from app.games.kit.state import KitSeat, KitState, Timer
from app.games.kit.step import Outcome, Step

__all__ = ["Act", "Action", "Command", "GameDef", "KitGame", "KitSeat", "KitState", "Outcome", "Request", "Step",
           "Timer", "build"]
