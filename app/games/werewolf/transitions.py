"""What a phase handler says comes next: plain data, opened by the definition's `openers` (`game.GAME`).

A handler never calls into another phase: it finishes its own work and returns one of these, or one of the kit's
(`kit.transitions`: `SeatLeft`, `SpeakRound`, `PkRound`, `VOTE_ROUND`), or None (the match waits for the next
command, or has ended), and the kit opens it, which may name the next one (an empty queue of dead seats' actions
passes straight on to the day).
"""

from dataclasses import dataclass

from app.games.kit.transitions import Cue, KitTransition


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


Transition = KitTransition | NightFalls
