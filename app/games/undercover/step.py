"""One application of a command: the kit's `Step`, plus the word library the deal draws from."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.kit import Outcome as KitOutcome
from app.games.kit import Step as KitStep
from app.games.undercover.state import MatchState

Outcome = KitOutcome[MatchState]


class Step(KitStep[MatchState]):
    """The working copy the phase modules change; the caller's state is never touched."""

    def __init__(self, state: MatchState, now: float, pairs: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(state, now)
        self.pairs = pairs
