"""One application of a command: the kit's `Step` over the werewolf state."""

from __future__ import annotations

from app.games.kit import Outcome as KitOutcome
from app.games.kit import Step as KitStep
from app.games.werewolf.state import MatchState

Step = KitStep[MatchState]
Outcome = KitOutcome[MatchState]
