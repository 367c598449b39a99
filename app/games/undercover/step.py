"""One application of a command: the kit's `Step` over the undercover state (a test may pass the deal's word pairs
as `pairs`)."""

from __future__ import annotations

from app.games.kit import Outcome as KitOutcome
from app.games.kit import Step as KitStep
from app.games.undercover.state import MatchState

Step = KitStep[MatchState]
Outcome = KitOutcome[MatchState]
