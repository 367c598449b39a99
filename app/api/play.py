"""The quick start (issue 17): `POST /api/play` seats a person against the official bots in one call, and
`GET /api/play/{game}/options` describes the form."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import OwnerIdDep, PlayingAgentDep, ProviderDep, RuntimeDep, client_ip, playing_agent
from app.api.errors import responses
from app.api.match_schemas import PlayerInfo
from app.api.schemas import DisplayName
from app.api.sitting import sitter_of
from app.protocol import registry
from app.services.match import quick_start

router = APIRouter(prefix="/api/play", tags=["play"], dependencies=[Depends(playing_agent)])  # §15.8


class QuickStart(BaseModel):
    model_config = ConfigDict(extra="ignore")
    game: str | None = Field(default=None, description="a game that offers a quick start (omitted: the default game)")
    name: DisplayName = Field(default=None, max_length=128, description=(
        "the name a guest is shown by (1–32 characters); not needed with a Bearer key or a logged-in session"))
    choices: dict[str, Any] | None = Field(default=None, description=(
        "the form's choices (`GET /api/play/{game}/options` gives their schema and defaults)"))


class QuickStarted(BaseModel):
    match_id: str
    seat: int
    play_token: str = Field(description="act with `X-Play-Token`; keep it to resume the seat after a reload")
    match_url: str
    invite_url: str
    config: dict[str, Any]
    status: str
    seats_open: int
    invites: bool = Field(False, description=(
        "a room for friends: share `invite_url`; the official bots take only the seats left, when the host calls "
        "them in (`POST /api/matches/{match_id}/fill`) or after the fill wait"))


class PlayOptions(BaseModel):
    model_config = ConfigDict(extra="allow")
    game: str
    schema_: dict[str, Any] = Field(alias="schema", description="JSON Schema of `choices`")
    defaults: dict[str, Any]


@router.post("", status_code=201, response_model=QuickStarted, summary="Quick start: sit down against the bots",
             responses=responses("invalid_config", "identity_required", "bots_unavailable", "quick_start_limit",
                                 "already_in_match",
                                 "cross_origin", "invalid_api_key", "rate_limited"))
async def play(body: QuickStart, request: Request, runtime: RuntimeDep, provider: ProviderDep, owner_id: OwnerIdDep,
               agent: PlayingAgentDep = None) -> dict[str, Any]:
    """The caller takes seat 0 of a new room (a guest by `name`, a logged-in owner as themselves, or an agent by
    its key) and the official bots take every other seat at once; the match starts as soon as they sit. A game
    whose quick start invites friends (its options say `invites: true`) opens a room that waits for
    them instead (`invites` in the answer). If a bot of the table misses a turn (the bots' process is down), the
    server plays every bot's seat from then on: a public `seat_taken_over` event each, and `taken_over: true` on
    their `players` rows."""
    game = body.game or registry.default_name()
    sitter = await sitter_of(request, runtime, agent, owner_id, PlayerInfo(name=body.name))
    runtime.limiter.hit("matches", client_ip(request), runtime.settings.rate_limit_matches_per_hour, 3600)
    applied, token = await quick_start.start(runtime, game, sitter, body.choices, provider.as_seat_meta())
    match = applied.match
    url = runtime.settings.match_url(match.match_id)
    return {"match_id": match.match_id, "seat": 0, "play_token": token, "match_url": url, "invite_url": url,
            "config": match.config, "status": match.status, "seats_open": match.n_players - match.seats_taken,
            "invites": quick_start.invites(quick_start.quick_game(game))}


@router.get("/{game}/options", response_model=PlayOptions, response_model_by_alias=True,
            summary="The quick-start form: its choices' schema and defaults",
            responses=responses("invalid_api_key", "invalid_config"))
async def play_options(game: str) -> dict[str, Any]:
    return quick_start.options(game)
