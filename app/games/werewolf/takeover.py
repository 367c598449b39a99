"""Takeover (issue 19): a seat that kept timing out is played by the official bot from now on.

The rules only mark the seat and say so publicly (`seat_taken_over`, and `taken_over: true` on its row); the
services send the bot's actions as that seat's commands. Taking over a seat twice, a dead seat, or outside a
running match does nothing.
"""

from __future__ import annotations

from app.games.werewolf.commands import TakeOver
from app.games.werewolf.step import Step
from app.games.werewolf.transitions import Transition


def take_over(step: Step, cmd: TakeOver) -> Transition:
    """Mark `cmd.seat` as played by the bot: a public `seat_taken_over` event."""
    player = step.state.seat(cmd.seat)
    if step.state.status != "in_progress" or player is None or player.taken_over:
        return None
    player.taken_over = True
    step.emit("seat_taken_over", "public", seat=cmd.seat, round=step.state.round_index)
    return None
