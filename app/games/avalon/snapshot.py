"""The snapshot fields Avalon adds (for openapi.json): public ones, and the god-only ones."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class AvalonSnapshot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    quest_no: int | None = Field(None, description="the quest being played, 1–5")
    quest_sizes: list[int] | None = Field(None, description="the team size of each quest")
    fails_needed: list[int] | None = Field(None, description="fail cards that fail each quest (2 on the 4th at 7+)")
    quests: list[dict[str, Any]] | None = Field(None, description="quests played: team, fails, result")
    leader_seat: int | None = Field(None, description="the leader of the current proposal")
    proposal_no: int | None = Field(None, description="1–5: the fifth rejection in a row is an evil win")
    team: list[int] | None = Field(None, description="the proposed (or approved) team")
    current_speaker_seat: int | None = Field(None, description="who speaks now in the discussion")
    voted_seats: list[int] | None = Field(None, description="who has voted (not how)")
    played_seats: list[int] | None = Field(None, description="who has played a quest card (not which)")
    proposals: list[dict[str, Any]] | None = Field(None, description="every team voted on, with all votes")
    lady_seat: int | None = Field(None, description="who holds the Lady of the Lake (null: not in play)")
    lady_examinations: list[dict[str, Any]] | None = Field(None, description="who examined whom (not the side)")
    assassin_seat: int | None = Field(None, description="the assassin, public once the good win three quests")
    deadline_ts: int | None = Field(None, description="when the current clock runs out (epoch seconds)")
    round_index: int | None = Field(None, description="the same as quest_no")
    alive_count: int | None = Field(None, description="seats still at the table")
    result: dict[str, Any] | None = Field(None, description="the result once finished")
    roles: dict[str, Any] | None = Field(None, description="god only: seat → role")
    votes: dict[str, Any] | None = Field(None, description="god only: the votes cast before the reveal")
    cards: list[dict[str, Any]] | None = Field(None, description="god only (everyone after the end): every card")
    lady_results: list[dict[str, Any]] | None = Field(None, description="god only: the Lady's findings")
