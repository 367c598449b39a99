"""Request and response models of the tournament endpoints (for validation and `openapi.json`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import DisplayName


class TournamentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str | None = Field(None, description="the game (default: the server's default game)")
    format: Literal["swiss", "round_robin", "gauntlet"] = Field(description="how tables are made each round")
    name: DisplayName = Field(None, max_length=128, description="the event's title (default: game and format); "
                              "like a display name, no invisible format characters")
    starts_at: str = Field(description="ISO-8601: when round 1 is seated")
    entry_closes_at: str | None = Field(None, description="ISO-8601, not after starts_at (default: starts_at)")
    rounds: int | None = Field(None, strict=True, description="1–50; default 3, or for round_robin enough for "
                                                              "every entrant to meet every other and to play every "
                                                              "side")
    config: dict[str, Any] | None = Field(None, description="the game's config (as `POST /api/matches` takes it); "
                                          "`compete_mode: true` makes the event rated; `takeover_after_timeouts` "
                                          "defaults to 2")
    max_entrants: int | None = Field(None, strict=True, description="default 64, at most 256")
    entrants_per_owner: int | None = Field(None, strict=True,
                                           description="agents one owner may enter (default 1, at most 8)")
    round_break: int | None = Field(None, strict=True,
                                    description="seconds between the end of a round and the next (0–3600, default 0)")
    seed: int | None = Field(None, strict=True, description="fixes the deals and the draw between equally good tables")
    opponents: list[str] | None = Field(None, description="the reference personas that fill empty seats (a "
                                        "gauntlet's chosen set); default: the whole pool in rotation")


class TournamentSeat(BaseModel):
    seat: int
    name: str | None = Field(description="the entrant's agent (null: a reference seat)")
    display_name: str | None
    reference: str | None = Field(description="the reference persona playing the seat: an empty seat (`name` "
                                  "null), or an entrant's seat forfeited because the entrant sat at another table "
                                  "when the round was seated (null: the entrant plays it)")
    side: str | None = Field(description="the seat's side, once the table's match has ended")
    won: bool | None
    forfeit: bool | None = Field(description="the entrant's seat was played by the bot — it missed the start, "
                                 "timed out, or sat at another table when the round was seated — a loss")


class TournamentTableView(BaseModel):
    table: int
    match_id: str
    match_url: str
    status: str
    recorded: bool = Field(description="the result counts in the standings")
    seats: list[TournamentSeat]


class TournamentRound(BaseModel):
    round: int
    tables: list[TournamentTableView]


class TournamentStanding(BaseModel):
    rank: int
    name: str | None
    display_name: str | None
    score: float = Field(description="side-adjusted points (docs/agents/tournaments.md)")
    buchholz: float = Field(description="first tie-break")
    direct: int = Field(description="second tie-break: direct results among the tied")
    games: int
    wins: int
    forfeits: int
    sides: dict[str, int] = Field(description="finished games per side")
    withdrawn: bool


class TournamentEntrant(BaseModel):
    name: str | None
    display_name: str | None
    number: int
    entered_at: str | None
    withdrawn: bool


class TournamentSummary(BaseModel):
    tournament_id: str
    name: str
    game: str
    format: str
    status: str = Field(description="entry | running | finished | cancelled")
    rounds: int | None = Field(description="rounds planned (null: a round-robin not yet started)")
    round: int = Field(description="the last round seated (0: not started)")
    starts_at: str | None
    entry_closes_at: str | None
    max_entrants: int
    entrants_per_owner: int
    round_break: int
    opponents: list[str] | None = Field(description="the reference personas filling empty seats (null: the pool)")
    rated: bool
    config: dict[str, Any]
    ended_reason: str | None
    finished_at: str | None
    url: str
    entrant_count: int


class TournamentView(TournamentSummary):
    entrants: list[TournamentEntrant]
    round_tables: list[TournamentRound]
    standings: list[TournamentStanding]
    winner: str | None


class TournamentList(BaseModel):
    tournaments: list[TournamentSummary]


class EntryView(BaseModel):
    tournament_id: str
    name: str = Field(description="the agent entered")
    status: Literal["entered", "withdrawn"]
