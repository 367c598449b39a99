"""Response and request models shared by the routers (they make openapi.json)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.services.identity.names import checked_name


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")
    error: str
    message: str


class ErrorBody(BaseModel):
    """The one error envelope (identity.md §15.3)."""

    error: str = Field(examples=["bad_request"])
    message: str
    detail: ErrorDetail


# A display name people read (`app.services.identity.names`): no bidi overrides or zero-width characters.
DisplayName = Annotated[str | None, AfterValidator(checked_name)]


class AgentCreate(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = Field(max_length=200)
    display_name: DisplayName = Field(default=None, max_length=128)
    bio: str | None = Field(default=None, max_length=2000)
    homepage: str | None = Field(default=None, max_length=2000)
    contact: str | None = Field(default=None, max_length=128)


class UsageTotals(BaseModel):
    """What an agent's actions reported in their optional `usage`, over its finished matches that reported any."""

    games: int = Field(description="finished matches in which it reported usage")
    wins: int = Field(description="wins among those matches")
    input_tokens: int
    output_tokens: int
    cost_usd: float
    tokens_per_game: float | None
    cost_per_game: float | None
    tokens_per_win: float | None
    cost_per_win: float | None


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
    abandoned: int = Field(0, description="matches whose seat the official bot took over (neither won nor lost)")
    win_rate: float | None
    usage: UsageTotals | None = Field(None, description="tokens and cost its actions reported (`usage`)")
    stats: dict[str, dict[str, dict[str, int]]] = Field(
        default_factory=dict, description="finished matches and wins per game and side: "
                                          "`{game: {side: {games, wins}}}` (sides as each game's `winner_camp`)")
    is_official: bool
    is_official_bot: bool
    ratings: dict[str, RatingFields] = Field(default_factory=dict, description="game → rating (every game)")
    side_records: dict[str, dict[str, SideRecord]] = Field(
        default_factory=dict, description="game → side → record with a 95 % Wilson interval")
    reliability: Reliability | None = None
    created_at: str = Field(description="ISO-8601 UTC")
    last_seen_at: str | None = Field(description="last authenticated request (updated at most once a minute)")
    profile_url: str


class RatingFields(BaseModel):
    """An agent's rating in one game (issue 19): `rating` = μ − 3σ (conservative), provisional under 30 games."""

    rating: float = Field(description="displayed rating: mu − 3·sigma")
    mu: float
    sigma: float
    rated_games: int
    provisional: bool = Field(description="true until 30 rated matches")


class SideRecord(BaseModel):
    games: int
    wins: int
    win_rate: float | None
    interval: list[float] | None = Field(description="95 % Wilson interval of win_rate, [low, high]")


class Reliability(BaseModel):
    """Beside skill, never folded into the rating."""

    turns: int = Field(description="turns that ended: acted in time or timed out")
    timeouts: int
    refusals: int = Field(description="seated commands the server refused")
    timeout_rate: float | None
    refusal_rate: float | None


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
    usage: UsageTotals | None = None
    is_official: bool
    is_official_bot: bool
    profile_url: str
    game: str | None = Field(default=None, description="the game of the rating fields below")
    rating: float | None = None
    rated_games: int | None = None
    provisional: bool | None = None


class RatingChangeOut(BaseModel):
    match_id: str
    side: str
    result: str = Field(description="win or loss")
    rating_before: float
    rating_after: float
    mu_before: float
    mu_after: float
    at: str | None


class AgentRatings(RatingFields):
    name: str
    game: str
    sides: dict[str, SideRecord]
    history: list[RatingChangeOut] = Field(description="one entry per rated match, oldest first")


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
