"""The top-level snapshot fields script_kill adds (`public_fields` for everyone, `god_fields` for god views)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ScriptKillSnapshot(BaseModel):
    """script_kill's snapshot fields; all optional (god fields appear only in god views)."""

    model_config = ConfigDict(extra="forbid")

    script: dict[str, Any] | None = Field(None, description="The script played: id, title, public intro.")
    characters: list[dict[str, Any]] | None = Field(None, description="seat → character (id, name, public text).")
    stage: str | None = Field(None, description="The seed's code stage: prepare, opening, free_talk, search, "
                                                "action, vote, settlement.")
    sub_stage: str | None = Field(None, description="The sub-stage (the match's phase while running).")
    stage_index: int | None = Field(None, description="The sub-stage's number, 0–11.")
    round_no: int | None = Field(None, description="0 before the first search, then 1 and 2.")
    stage_deadline_ts: int | None = Field(None, description="When the stage ends at the latest (epoch seconds).")
    deadline_ts: int | None = Field(None, description="The same as stage_deadline_ts.")
    unlocked_locations: list[dict[str, Any]] | None = Field(None, description="Locations open to search.")
    public_clues: list[dict[str, Any]] | None = Field(None, description="Clues published or shown to the table.")
    anchors: list[str] | None = Field(None, description="The anchor texts read out so far.")
    speaker: int | None = Field(None, description="self_intro: the seat holding the floor.")
    vote_round: int | None = Field(None, description="final_vote: 1, or 2 for the second vote among the tied.")
    vote_candidates: list[int] | None = Field(None, description="final_vote: the seats one may vote for.")
    ending: str | None = Field(None, description="After the vote: perfect, normal or failure.")
    culprit: str | None = Field(None, description="The culprit's character id (god only until the vote is "
                                                        "resolved; public from the review on).")
    tally: list[dict[str, Any]] | None = Field(None, description="The votes per round (god only until the vote is "
                                                                 "resolved; public from the review on).")
    review: dict[str, Any] | None = Field(None, description="After the vote: the truth and the timeline.")
    hands: dict[str, Any] | None = Field(None, description="God only: seat → character, items, clues.")
    result: dict[str, Any] | None = Field(None, description="The result once finished or aborted.")
