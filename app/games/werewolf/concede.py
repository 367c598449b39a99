"""Concession (spec §2.8): a living seat leaves at once and its role becomes public, whatever
`reveal_role_on_death` says. A conceding hunter does not shoot and has no last words.

The win check runs first. Otherwise the phase carries on without the seat: at night its wolf choice is
withdrawn (the rest of the pack may now hold a majority) and a night role that left is no longer waited
for; by day the floor passes on, and votes cast by or for it are void (those voters vote again).
"""

from __future__ import annotations

from app.games.kit import Concede
from app.games.kit.checks import require_in_progress, require_living
from app.games.kit.dispatch import SeatLeft
from app.games.werewolf import deaths, ending
from app.games.werewolf.state import Step
from app.games.werewolf.transitions import Transition


def concede(step: Step, cmd: Concede) -> Transition:
    """Take `cmd.seat` out of the game; unless that decides the match, the phase carries on without it."""
    state = step.state
    require_in_progress(state, waiting_code="match_not_in_progress")
    player = require_living(state, cmd.seat)
    when = "night" if state.stage == "night" else "day"
    deaths.kill(state, cmd.seat, "conceded", f"{when}_{state.round_index}")
    player.conceded = True
    step.emit("player_conceded", "public", seat=cmd.seat, round=state.round_index, revealed_role=player.role,
              revealed_camp=player.camp)
    if ending.finish_if_won(step):
        return None
    return SeatLeft(cmd.seat)
