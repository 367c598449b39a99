"""The match state: the kit's base (seats, clock, result) plus the quest track, the leader, the proposal on the
table, the hidden votes and cards of the moment, and the records everyone may read."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.games.avalon.config import AvalonConfig, is_evil
from app.games.kit import KitSeat, KitState


class State(KitState[AvalonConfig, KitSeat]):
    quest: int = 1
    """The quest being played (1–5)."""
    leader: int = 0
    proposal: int = 1
    """The proposal of this quest (1–5): `proposal - 1` teams were rejected in a row."""
    team: list[int] = Field(default_factory=list)
    speaker: int | None = None
    votes: dict[int, str] = Field(default_factory=dict)
    """The current vote (`approve`/`reject` per seat): god-only until every seat has voted."""
    cards: dict[int, str] = Field(default_factory=dict)
    """The current quest's cards (`success`/`fail` per seat): god-only until the end."""
    quests: list[dict[str, Any]] = Field(default_factory=list)
    """Every quest played: quest, leader, team, fails, fails_needed, result."""
    proposals: list[dict[str, Any]] = Field(default_factory=list)
    """Every team put to the vote, with every seat's vote once revealed."""
    card_log: list[dict[str, Any]] = Field(default_factory=list)
    """God-only: every card played (quest, seat, card)."""
    lady: int | None = None
    lady_held: list[int] = Field(default_factory=list)
    lady_checks: list[dict[str, Any]] = Field(default_factory=list)
    """Lady of the Lake: the examinations (holder, target_seat; the side god-only and the holder's)."""
    assassin_target: int | None = None

    def role(self, seat: int) -> str:
        return str(self.players[seat].role)

    def evil(self, seat: int) -> bool:
        return is_evil(self.players[seat].role)

    def seats_of(self, *roles: str) -> list[int]:
        return [p.seat for p in self.players if p.role in roles]

    def after(self, seat: int) -> int:
        return (seat + 1) % len(self.players)

    @property
    def team_size(self) -> int:
        return self.config.quest_sizes[self.quest - 1]
