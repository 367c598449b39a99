"""What a phase handler says comes next: plain data, opened by the definition's `openers` (`game.GAME`).

A handler never calls into another phase. It finishes its own work and returns one of these, or one of the kit's
(`kit.transitions`: `SeatLeft`, `SpeakRound`, `PkRound`, `VOTE_ROUND`), or None (the match waits for the next
command, or has ended), and the kit opens it, which may in turn name the next one (an empty reveal passes straight
on to the next round).
"""

from dataclasses import dataclass

from app.games.kit.transitions import Cue, KitTransition

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


Transition = KitTransition | DebateRound | Reveal
