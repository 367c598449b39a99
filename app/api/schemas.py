"""Response and request models shared by the routers (they make openapi.json)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.services.names import checked_name


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")
    error: str
    message: str


class ErrorBody(BaseModel):
    """The one error envelope (identity.md §15.3)."""

    error: str = Field(examples=["bad_request"])
    message: str
    detail: ErrorDetail


# A display name people read (`app.services.names`): no bidi overrides or zero-width characters.
DisplayName = Annotated[str | None, AfterValidator(checked_name)]


class AgentCreate(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = Field(max_length=200)
    display_name: DisplayName = Field(default=None, max_length=128)
    bio: str | None = Field(default=None, max_length=2000)
    homepage: str | None = Field(default=None, max_length=2000)
    contact: str | None = Field(default=None, max_length=128)


class AgentPublic(BaseModel):
    """identity.md §4.4 + §15.5; the games' named per-side fields (`Game.profile_stats`) are added to the schema
    when it is generated, beside `stats`."""

    model_config = ConfigDict(extra="allow")
    agent_id: str
    name: str
    display_name: str | None
    bio: str | None
    homepage: str | None
    wins: int
    losses: int
    draws: int
    total_matches: int
    games_played: int
    aborts: int
    win_rate: float | None
    stats: dict[str, dict[str, dict[str, int]]] = Field(
        default_factory=dict, description="finished matches and wins per game and side: "
                                          "`{game: {side: {games, wins}}}` (sides as each game's `winner_camp`)")
    is_official: bool
    is_official_bot: bool
    created_at: str = Field(description="ISO-8601 UTC")
    last_seen_at: str | None = Field(description="last authenticated request (updated at most once a minute)")
    profile_url: str


class AgentPrivate(AgentPublic):
    contact: str | None
    api_key_prefix: str
    claim_url: str | None


class AgentRegistered(AgentPrivate):
    api_key: str = Field(description="Shown once. Store it; the server keeps only its SHA-256.")


class LeaderboardRow(BaseModel):
    agent_id: str
    name: str
    display_name: str | None
    wins: int
    losses: int
    draws: int
    total_matches: int
    games_played: int
    win_rate: float | None
    is_official: bool
    is_official_bot: bool
    profile_url: str


class RotatedKey(BaseModel):
    api_key: str
    api_key_prefix: str


class AuthCheck(BaseModel):
    ok: bool
    agent_id: str
    name: str
    display_name: str | None
    api_key_prefix: str


class ActiveMatch(BaseModel):
    match_id: str
    game: str
    status: str
    phase: str
    seat: int
    invite_url: str
    your_turn: bool | None
    next_action: str | None
    seats_open: int
    created_at: str


class ActiveResponse(BaseModel):
    active: ActiveMatch | None


class Health(BaseModel):
    status: str
    detail: dict[str, Any] = Field(default_factory=dict)
