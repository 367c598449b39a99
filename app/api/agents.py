"""Identity endpoints (identity.md §4, §15)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request

from app.api.deps import CurrentAgentDep, ProviderDep, RuntimeDep, client_ip, current_agent
from app.api.errors import responses
from app.api.schemas import (
    ActiveResponse,
    AgentCreate,
    AgentPrivate,
    AgentPublic,
    AgentRegistered,
    AuthCheck,
    LeaderboardRow,
    RotatedKey,
)
from app.db import agents as repo
from app.db.models import Agent
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services import agents as service
from app.services import listing
from app.services.tokens import digest, digests_match

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
    async with runtime.db.writer() as session:
        agent, key = await service.register(session, body.model_dump(), official=official,
                                            provider_id=provider.provider_id, provider_meta=provider.meta)
        if official:  # an official bot registered again gets a fresh key: the old one stops working everywhere
            await runtime.notifier.stage_key_change(session, agent.agent_id)
        body_out = {**service.private_profile(agent, runtime.settings.base_url), "api_key": key}
    runtime.keys.forget(agent.agent_id)
    return body_out


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
    if service.needs_seen(agent):
        async with runtime.db.writer() as session:
            agent.last_seen_at = await service.touch(session, agent.agent_id)
    return service.private_profile(agent, runtime.settings.base_url)


@router.post("/agents/me/rotate-key", response_model=RotatedKey, summary="Replace your API key",
             responses=responses(*AUTH_ERRORS))
async def rotate_key(runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    async with runtime.db.writer() as session:
        agent = _require_agent(await repo.by_id(session, _require_agent(caller).agent_id, lock=True))
        key = service.rotate_key(agent)
        await runtime.notifier.stage_key_change(session, agent.agent_id)
    runtime.keys.forget(agent.agent_id)  # committed: the old key is refused from now on, here and elsewhere
    return {"api_key": key, "api_key_prefix": agent.api_key_prefix}


@router.get("/agents/me/active", response_model=ActiveResponse, summary="Your unfinished match, if any",
            responses=responses(*AUTH_ERRORS))
async def active(runtime: RuntimeDep, caller: CurrentAgentDep) -> dict[str, Any]:
    agent = _require_agent(caller)
    async with runtime.db.reader() as session:
        return {"active": await listing.active_for(session, runtime, agent.agent_id)}


@router.get("/agents", response_model=list[LeaderboardRow], summary="Leaderboard")
async def leaderboard(runtime: RuntimeDep, limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
    async with runtime.db.reader() as session:
        agents = await repo.leaderboard(session, limit)
        return [service.public_profile(a, runtime.settings.base_url) for a in agents]


@router.get("/agents/{name}", response_model=AgentPublic, summary="Public profile",
            responses=responses("agent_not_found"))
async def profile(name: str, runtime: RuntimeDep) -> dict[str, Any]:
    async with runtime.db.reader() as session:
        agent = await repo.by_name(session, name.strip().lower())
        if agent is None:
            raise ApiError("agent_not_found", f"no agent named {name!r}")
        return service.public_profile(agent, runtime.settings.base_url)


@router.get("/auth/check", response_model=AuthCheck, summary="Check an API key",
            responses=responses(*AUTH_ERRORS))
async def auth_check(caller: CurrentAgentDep) -> dict[str, Any]:
    agent = _require_agent(caller)
    return {"ok": True, "agent_id": agent.agent_id, "name": agent.name,
            "display_name": agent.display_name, "api_key_prefix": agent.api_key_prefix}
