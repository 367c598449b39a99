"""Concession (spec §2.8): a living seat leaves at once and its role becomes public.

If it held the floor, the floor passes on. In a vote its own vote is withdrawn, votes cast
for it are void and those voters are invited to vote again. A tied seat conceding in a PK
leaves the PK; if one candidate is left the round ends with nobody else out. The win check
runs before any of that.
"""

from __future__ import annotations

from app.games.kit import Concede
from app.games.kit.checks import require_in_progress, require_living
from app.games.kit.dispatch import SeatLeft
from app.games.undercover import ending
from app.games.undercover.state import Step
from app.games.undercover.transitions import Transition


def concede(step: Step, cmd: Concede) -> Transition:
    """Take `cmd.seat` out of the game; unless that decides the match, the phase carries on without it."""
    state = step.state
    require_in_progress(state, waiting_code="match_not_in_progress")
    player = require_living(state, cmd.seat)
    player.alive = False
    player.conceded = True
    player.revealed_role = player.role
    player.eliminated_in = f"round_{state.round_index}"
    step.emit("player_conceded", "public", seat=cmd.seat, revealed_role=player.role,
              round=state.round_index)
    if ending.finish_if_won(step, by_concession=True):
        return None
    return SeatLeft(cmd.seat)
