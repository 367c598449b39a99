"""What a phase handler says comes next: plain data, opened by the definition's `openers` (`game.GAME`).

A handler never calls into another phase. It finishes its own work and returns one of these (or None: the match
waits for the next command, or has ended), and the kit opens it, which may in turn name the next one (an empty
reveal passes straight on to the next round). `SeatLeft`, `SpeakRound`, `PkRound` and `VOTE_ROUND` are the kit's.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.kit.dispatch import Cue, SeatLeft
from app.games.kit.turns import PkRound, SpeakRound
from app.games.kit.voting import VOTE_ROUND

__all__ = ["PK_CONCEDED", "SPEECHES_DONE", "VOTE_ROUND", "DebateRound", "PkRound", "Reveal", "SeatLeft", "SpeakRound",
           "Transition"]


SPEECHES_DONE = Cue("speeches_done")
"""Every speaker of the phase has had the floor: the host's commentary and the debate (when the room asked for
them), then the vote."""


@dataclass(frozen=True)
class DebateRound:
    """Open debate round `index` (1…`debate_rounds`) of the current round: `debate_round_N`."""

    index: int


PK_CONCEDED = Cue("pk_conceded")
"""Concessions left a PK with one candidate: the round resolves with nobody else out."""


@dataclass(frozen=True)
class Reveal:
    """Open `reveal_round_N` after the round's `round_resolved`; `eliminated` is the seat voted out."""

    eliminated: int | None


Transition = SpeakRound | PkRound | DebateRound | Reveal | SeatLeft | Cue | None
