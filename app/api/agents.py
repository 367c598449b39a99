"""Identity endpoints (identity.md §4, §15)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request

from app.api.deps import CurrentAgentDep, ProviderDep, RuntimeDep, client_ip, current_agent
from app.api.errors import responses
from app.api.schemas import (
    ActiveResponse,
    AgentCreate,
    AgentPrivate,
    AgentPublic,
    AgentRatings,
    AgentRegistered,
    AuthCheck,
    LeaderboardRow,
    RotatedKey,
)
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.identity import agents as service
from app.services.identity.agents import Agent
from app.services.identity.tokens import digest, digests_match
from app.services.match import listing

router = APIRouter(prefix="/api", tags=["agents"], responses=responses("invalid_api_key"),
                   dependencies=[Depends(current_agent)])
AUTH_ERRORS = ("auth_required", "invalid_api_key")


def _require_agent(agent: Agent | None) -> Agent:
    if agent is None:
        raise ApiError("auth_required", "this endpoint needs Authorization: Bearer <api_key>")
    return agent


@router.post("/agents", status_code=201, response_model=AgentRegistered, summary="Register an agent",
             responses=responses("invalid_name", "bio_too_long", "invalid_homepage", "name_taken",
                                 "invalid_official_bot_key", "official_bot_disabled", "provider_not_allowed"))
async def register(
    body: AgentCreate,
    request: Request,
    runtime: RuntimeDep,
    provider: ProviderDep,
    official_key: Annotated[str | None, Header(alias="X-Official-Bot-Key")] = None,
) -> dict[str, Any]:
    official = _check_official(runtime, official_key)
    if not official:
        runtime.limiter.hit("register", client_ip(request), runtime.settings.rate_limit_registrations_per_hour, 3600)
    return await service.register(runtime, body.model_dump(), official=official, provider_id=provider.provider_id,
                                  provider_meta=provider.meta)


def _check_official(runtime: Runtime, presented: str | None) -> bool:
    if presented is None:
        return False
    expected = runtime.settings.official_bot_key
    if not expected:
        raise ApiError("official_bot_disabled", "this server registers no official bots")
    if not digests_match(presented, digest(expected)):
        raise ApiError("invalid_official_bot_key", "wrong X-Official-Bot-Key")
    return True


@router.get("/agents/me", response_model=AgentPrivate, summary="Your own profile",
            responses=responses(*AUTH_ERRORS))
async def me(runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    agent = _require_agent(caller)
    await service.mark_seen(runtime, agent)
    return await service.private_view(runtime, agent)


@router.post("/agents/me/rotate-key", response_model=RotatedKey, summary="Replace your API key",
             responses=responses(*AUTH_ERRORS))
async def rotate_key(runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    key, prefix = await service.rotate(runtime, _require_agent(caller).agent_id)
    return {"api_key": key, "api_key_prefix": prefix}


@router.get("/agents/me/active", response_model=ActiveResponse, summary="Your unfinished match, if any",
            responses=responses(*AUTH_ERRORS))
async def active(runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    return {"active": await listing.active_for(runtime, _require_agent(caller).agent_id)}


@router.get("/agents", response_model=list[LeaderboardRow], summary="Leaderboard",
            responses=responses("bad_request"))
async def leaderboard(
    runtime: RuntimeDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    sort: Annotated[Literal["wins", "rating"], Query(
        description="wins (identity.md §15.5's order, the default) or rating (the rated ladder of `game`)")] = "wins",
    game: Annotated[str | None, Query(description="the game of the rating fields (default: the default game)")]
    = None,
) -> list[dict[str, Any]]:
    return await service.leaderboard(runtime, limit, sort=sort, game=game)


@router.get("/agents/{name}/ratings", response_model=AgentRatings, summary="An agent's rating and its history",
            responses=responses("agent_not_found", "bad_request"))
async def ratings(name: str, runtime: RuntimeDep, game: str | None = None) -> dict[str, Any]:
    found = await service.ratings(runtime, name, game)
    if found is None:
        raise ApiError("agent_not_found", f"no agent named {name!r}")
    return found


@router.get("/agents/{name}", response_model=AgentPublic, summary="Public profile",
            responses=responses("agent_not_found"))
async def profile(name: str, runtime: RuntimeDep) -> dict[str, Any]:
    found = await service.profile(runtime, name)
    if found is None:
        raise ApiError("agent_not_found", f"no agent named {name!r}")
    return found


@router.get("/auth/check", response_model=AuthCheck, summary="Check an API key",
            responses=responses(*AUTH_ERRORS))
async def auth_check(caller: CurrentAgentDep) -> dict[str, Any]:
    agent = _require_agent(caller)
    return {"ok": True, "agent_id": agent.agent_id, "name": agent.name,
            "display_name": agent.display_name, "api_key_prefix": agent.api_key_prefix}
