"""What a phase handler says comes next: plain data, opened by the definition's `openers` (`game.GAME`).

A handler never calls into another phase: it finishes its own work and returns one of these (or None: the match
waits for the next command, or has ended), and the kit opens it, which may name the next one (an empty queue of dead
seats' actions passes straight on to the day). `SeatLeft`, `SpeakRound`, `PkRound` and `VoteRound` are the kit's.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.kit.dispatch import SeatLeft
from app.games.kit.turns import PkRound, SpeakRound
from app.games.kit.voting import VoteRound

__all__ = ["Dawn", "NextPending", "NightFalls", "PkRound", "SeatLeft", "SpeakRound", "Transition", "VoteRound",
           "WitchWakes"]


@dataclass(frozen=True)
class NightFalls:
    """Open `night_round_N`: wolves, seer and guard act at once."""

    round_index: int


@dataclass(frozen=True)
class WitchWakes:
    """The wolves have chosen: the witch (alive, with a potion) learns the victim and acts."""


@dataclass(frozen=True)
class Dawn:
    """The night is over: resolve it and announce the dead."""


@dataclass(frozen=True)
class NextPending:
    """Open the next dead seat's action (shot, last words), or move on when none is left."""


Transition = NightFalls | WitchWakes | Dawn | NextPending | SpeakRound | PkRound | VoteRound | SeatLeft | None
