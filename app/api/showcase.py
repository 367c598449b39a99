"""The showcase (issue 33): `GET /api/showcase` says what is on; `POST /api/showcase` is the platform's own request
(the official bots', with `X-Official-Bot-Key`) to open one (`app.services.match.showcase`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import RuntimeDep, playing_agent
from app.api.errors import responses
from app.api.match_schemas import MatchSummary
from app.protocol.errors import ApiError
from app.services.identity.tokens import digest, digests_match
from app.services.match import showcase as service

router = APIRouter(prefix="/api/showcase", tags=["showcase"], dependencies=[Depends(playing_agent)])  # §15.8


class ShowcaseNext(BaseModel):
    game: str
    config: dict[str, Any]
    n_players: int


class ShowcaseStatus(BaseModel):
    enabled: bool = Field(description="`WODI_SHOWCASE`: whether this server plays showcases at all")
    match: MatchSummary | None = Field(description="the showcase waiting or in progress, if any")
    others_live: bool = Field(description="a public match other than a showcase is in progress (none is needed)")
    next: ShowcaseNext | None = Field(description="the game and config the next showcase would be")


class ShowcaseOpen(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="the game to show (the next one in turn: `GET /api/showcase`)")
    agents: list[str] = Field(min_length=1, max_length=12, description=(
        "the official bots to seat, seat 0 first: exactly the game's `n_players` of them, each at no other table"))


class ShowcaseOpened(BaseModel):
    match_id: str
    game: str
    config: dict[str, Any]
    n_players: int
    invite_url: str


@router.get("", response_model=ShowcaseStatus, summary="The showcase: what is on, and what would come next",
            responses=responses("invalid_api_key"))
async def showcase_status(runtime: RuntimeDep) -> dict[str, Any]:
    return await service.status(runtime)


@router.post("", status_code=201, response_model=ShowcaseOpened, summary="Open a showcase (the official bots only)",
             responses=responses("invalid_api_key", "invalid_official_bot_key", "official_bot_disabled", "showcase_off",
                                 "showcase_busy", "invalid_config", "already_in_match", "bots_unavailable"))
async def open_showcase(body: ShowcaseOpen, runtime: RuntimeDep,
                        official_key: Annotated[str | None, Header(alias="X-Official-Bot-Key")] = None,
                        ) -> dict[str, Any]:
    expected = runtime.settings.official_bot_key
    if not expected:
        raise ApiError("official_bot_disabled", "this server registers no official bots")
    if official_key is None or not digests_match(official_key, digest(expected)):
        raise ApiError("invalid_official_bot_key", "a showcase is the platform's: send the X-Official-Bot-Key")
    return await service.open_showcase(runtime, body.game, body.agents)
