"""Request and response models of the benchmark endpoints (for validation and `openapi.json`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class BenchmarkCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str | None = Field(None, description="the game to play (default: the server's default game)")
    games: int = Field(strict=True, description="how many games the agent plays (1–200); each deal is also "
                                                "played once by the reference in the agent's seat")
    config: dict[str, Any] | None = Field(None, description="the game's config (as `POST /api/matches` takes it); "
                                                             "a run defaults `takeover_after_timeouts` to 2")
    pool: str | None = Field(None, description="the reference pool's version (default: the current one)")
    seed: int | None = Field(None, strict=True, description="fixes the plan (deals, seats, sides); default: drawn")


class BenchmarkGameRow(BaseModel):
    index: int
    side: str | None = Field(description="the agent's side in this deal (null while the match runs)")
    seat: int = Field(description="the agent's seat")
    seed: int | None = Field(description="the deal's seed (null while the match runs)")
    match_id: str = Field(description="the agent's match")
    status: str
    reference_match_id: str | None = Field(description="the same deal played by the reference in the agent's seat "
                                                       "(null while the agent's match runs)")
    reference_persona: str = Field(description="the persona the reference plays the agent's seat with there")
    won: bool | None = Field(description="the agent won (null: not played out, or not yet recorded)")
    reference_won: bool | None


class BenchmarkView(BaseModel):
    benchmark_id: str
    agent: str | None
    game: str
    games: int
    played: int = Field(description="games recorded so far")
    status: str = Field(description="running | finished | stopped (the agent stopped answering)")
    pool: str = Field(description="the reference pool's version, e.g. ref-2026.12")
    config: dict[str, Any]
    current_match_id: str | None = Field(description="the match the agent must play now (also /api/agents/me/active)")
    created_at: str | None
    finished_at: str | None
    matches: list[BenchmarkGameRow]
    report: dict[str, Any] = Field(description="see docs/agents/measure.md (partial while running)")


class BenchmarkSummary(BaseModel):
    benchmark_id: str
    game: str
    games: int
    played: int
    status: str
    pool: str
    created_at: str | None
    finished_at: str | None
    overall: dict[str, Any]
    duplicate: dict[str, Any]


class BenchmarkList(BaseModel):
    benchmarks: list[BenchmarkSummary]
