"""The top-level snapshot fields werewolf adds (`public_fields` for everyone, `god_fields` for god views)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class WerewolfSnapshot(BaseModel):
    """Werewolf's snapshot fields; all optional (god fields appear only in god views)."""

    model_config = ConfigDict(extra="forbid")

    round_index: int | None = Field(None, description="The current round: night N, then day N.")
    is_night: bool | None = Field(None, description="True during `night_round_N`.")
    current_speaker_seat: int | None = Field(None, description="Who holds the floor in `speak_round_N`.")
    acting_seat: int | None = Field(None, description="The dead seat now shooting or saying last words.")
    deadline_ts: int | None = Field(None, description="When the current clock runs out (epoch seconds).")
    alive_count: int | None = Field(None, description="Living seats.")
    alive_seats: list[int] | None = Field(None, description="Living seats, ascending.")
    pk_candidates: list[int] | None = Field(None, description="The tied seats of a PK (tie_break=revote).")
    composition: dict[str, int] | None = Field(None, description="The roles dealt: role → count (public).")
    result: dict[str, Any] | None = Field(None, description="The result once finished or aborted.")
    roles: dict[str, str | None] | None = Field(None, description="God only: seat → role.")
    night_actions: dict[str, Any] | None = Field(None, description="God only: what the night roles did tonight.")
