"""What a phase handler says comes next: plain data, opened by the definition's `openers` (`game.GAME`).

A handler never calls into another phase: it finishes its own work and returns one of these (or None: the match
waits for the next command, or has ended), and the kit opens it, which may name the next one (an empty queue of dead
seats' actions passes straight on to the day). `SeatLeft`, `SpeakRound`, `PkRound` and `VOTE_ROUND` are the kit's.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.kit.dispatch import Cue, SeatLeft
from app.games.kit.turns import PkRound, SpeakRound
from app.games.kit.voting import VOTE_ROUND

__all__ = ["DAWN", "NEXT_PENDING", "VOTE_ROUND", "WITCH_WAKES", "NightFalls", "PkRound", "SeatLeft", "SpeakRound",
           "Transition"]


@dataclass(frozen=True)
class NightFalls:
    """Open `night_round_N`: wolves, seer and guard act at once."""

    round_index: int


WITCH_WAKES = Cue("witch_wakes")
"""The wolves have chosen: the witch (alive, with a potion) learns the victim and acts."""
DAWN = Cue("dawn")
"""The night is over: resolve it and announce the dead."""
NEXT_PENDING = Cue("next_pending")
"""Open the next dead seat's action (shot, last words), or move on when none is left."""


Transition = NightFalls | SpeakRound | PkRound | SeatLeft | Cue | None
