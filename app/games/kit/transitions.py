"""The kit's own transitions, in one union a game's `Transition` extends with its own (`KitTransition | Reveal`)."""

from app.games.kit.dispatch import Cue, SeatLeft
from app.games.kit.turns import PkRound, SpeakRound
from app.games.kit.voting import VOTE_ROUND

__all__ = ["VOTE_ROUND", "Cue", "KitTransition", "PkRound", "SeatLeft", "SpeakRound"]

KitTransition = SpeakRound | PkRound | SeatLeft | Cue | None
"""What a rule, timer or opener may return besides the game's own transitions (None: wait for the next command)."""
