"""Which finished matches move ratings (issues 19 and 26): a pure decision over what the match row and its seats say.

A rated match needs evidence that its seats are independent players (docs/agents/ratings.md): every seat that is
not an official bot belongs to an owner — an agent claimed by an owner by the time the match ended, or one an
allow-listed provider reports an owner for — and no two seats share one; if anyone conceded, every seat had acted
first; and the same owners at one table are rated once per window (`pairing`, checked by the caller).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SeatFacts:
    """What the rule needs to know about one seat."""

    agent_id: str | None
    official: bool
    owners: frozenset[str]  # the owner identities vouched for: `owner:<id>`, `provider:<id>:<owner>`
    taken_over: bool
    human: bool = False  # an owner playing as themselves (a person, not an agent)
    acted: bool = True  # the seat sent at least one command that moved the match
    conceded: bool = False


@dataclass(frozen=True)
class Independence:
    """The verdict before the pairing check: `reason` (None: rated so far) and the table's `pairing`."""

    reason: str | None
    pairing: str | None = field(default=None)


def owner_identities(owner_id: str | None, claimed_in_time: bool, provider_id: str | None,
                     provider_owner: object, trusted: frozenset[str]) -> frozenset[str]:
    """The owners vouched for a seat: its agent's owner if claimed by the time the match ended, and the owner an
    allow-listed provider reported on the seat (`WODI_PROVIDER_ALLOWLIST`; anyone can send the headers)."""
    found = set()
    if owner_id and claimed_in_time:
        found.add(f"owner:{owner_id}")
    if provider_id in trusted and isinstance(provider_owner, str | int) and str(provider_owner):
        found.add(f"provider:{provider_id}:{provider_owner}")
    return frozenset(found)


def pairing(seats: Sequence[SeatFacts]) -> str | None:
    """A digest of the owners at the table (official bots aside); None with fewer than two (one agent against the
    bots colludes with nobody)."""
    players = sorted(min(seat.owners) for seat in seats if not seat.official and seat.owners)
    if len(players) < 2:
        return None
    return hashlib.sha256("\n".join(players).encode()).hexdigest()


def unrated_reason(*, status: str, competitive: bool, seats: Sequence[SeatFacts],
                   sides: Sequence[int]) -> Independence:
    """Whether the match is rated as far as its own rows tell (`reason` None), and its pairing for the window check.
    `sides`: the seats the game dealt a side to."""
    reason = _reason(status, competitive, seats, sides)
    return Independence(reason, pairing(seats) if reason is None else None)


def seats_matter(status: str, competitive: bool) -> bool:
    """Whether the verdict reads the seats at all: an unfinished or casual match is unrated whoever sat."""
    return _match_reason(status, competitive) is None


def _match_reason(status: str, competitive: bool) -> str | None:
    if status != "finished":
        return "not_finished"
    if not competitive:
        return "casual"
    return None


def _reason(status: str, competitive: bool, seats: Sequence[SeatFacts], sides: Sequence[int]) -> str | None:
    if (reason := _match_reason(status, competitive)) is not None:
        return reason
    if any(seat.agent_id is None and not seat.official for seat in seats):  # official: a reference seat too
        return "guest_seat"
    if any(seat.human for seat in seats):
        return "human_seat"
    if any(seat.taken_over for seat in seats):
        return "taken_over"
    if all(seat.official for seat in seats):
        return "bots_only"
    players = [seat for seat in seats if not seat.official]
    if any(not seat.owners for seat in players):
        return "unclaimed"
    seen: set[str] = set()
    for seat in players:
        if seen & seat.owners:
            return "one_owner"
        seen |= seat.owners
    if any(seat.conceded for seat in seats) and not all(seat.acted for seat in seats):
        return "conceded_early"
    if len(sides) != len(seats):
        return "no_sides"
    return None
