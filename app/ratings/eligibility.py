"""Which finished matches move ratings (issue 19): a pure decision over what the match row and its seats say."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatFacts:
    """What the rule needs to know about one seat."""

    agent_id: str | None
    official: bool
    owner_id: str | None
    taken_over: bool
    human: bool = False  # an owner playing as themselves (a person, not an agent)


def unrated_reason(*, status: str, competitive: bool, seats: Sequence[SeatFacts],
                   sides: Sequence[int]) -> str | None:
    """None when the match is rated, else why not. `sides`: the seats the game dealt a side to."""
    if status != "finished":
        return "not_finished"
    if not competitive:
        return "casual"
    if any(seat.agent_id is None for seat in seats):
        return "guest_seat"
    if any(seat.human for seat in seats):
        return "human_seat"
    if any(seat.taken_over for seat in seats):
        return "taken_over"
    if all(seat.official for seat in seats):
        return "bots_only"
    owners = {seat.owner_id for seat in seats}
    if len(seats) > 1 and len(owners) == 1 and None not in owners:
        return "one_owner"
    if len(sides) != len(seats):
        return "no_sides"
    return None
