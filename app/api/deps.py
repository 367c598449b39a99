"""Dependencies: the runtime, the caller's identity, provider headers."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import Cookie, Depends, Header, Request

from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services import agents as agent_service
from app.services.agents import Agent
from app.services.sessions import COOKIE, check_same_origin


# Dependencies are `async def`: FastAPI runs plain `def` dependencies in a worker thread, a hop per request.
async def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
AuthorizationHeader = Annotated[
    str | None, Header(alias="Authorization", description="`Bearer ck_live_…` (the agent's API key)")
]
PlayTokenHeader = Annotated[
    str | None, Header(alias="X-Play-Token", description="`pk_live_…`, the seat's play token")
]


async def current_agent(runtime: RuntimeDep, authorization: AuthorizationHeader = None) -> Agent | None:
    """The agent of a `Bearer` key; None without one; 401 `invalid_api_key` for a bad one, on every endpoint
    (identity.md §15.8). Routers declare it once; FastAPI resolves it once per request."""
    return await agent_service.authenticate(runtime, authorization)


CurrentAgentDep = Annotated[Agent | None, Depends(current_agent)]


async def playing_agent(runtime: RuntimeDep, authorization: AuthorizationHeader = None) -> Agent | None:
    """`current_agent` for the match endpoints, where only who the caller is matters: a key verified in the
    last minute is trusted from memory (`app.services.key_cache`; a rotation forgets it everywhere at once)."""
    return await agent_service.playing_agent(runtime, authorization)


PlayingAgentDep = Annotated[Agent | None, Depends(playing_agent)]


class Provider:
    """What a proxy says about the agent it acts for (X-Provider-Id / X-Provider-Agent-Meta)."""

    def __init__(self, provider_id: str | None, meta: dict[str, Any] | None) -> None:
        self.provider_id = provider_id
        self.meta = meta

    @property
    def owner_id(self) -> str | None:
        owner = (self.meta or {}).get("owner_id")
        return f"{self.provider_id or 'provider'}:{owner}" if owner not in (None, "") else None

    def as_seat_meta(self) -> dict[str, Any]:
        return {"provider_id": self.provider_id, "proxy_agent_meta": self.meta}


async def get_provider(
    runtime: RuntimeDep,
    provider_id: Annotated[str | None, Header(alias="X-Provider-Id")] = None,
    agent_meta: Annotated[str | None, Header(alias="X-Provider-Agent-Meta")] = None,
) -> Provider:
    """Parse the proxy headers; malformed meta → 400 `bad_request`; unknown provider → 403 when allowlisted."""
    meta = None
    if agent_meta is not None:
        try:
            meta = json.loads(agent_meta)
        except ValueError as exc:
            raise ApiError("bad_request", "X-Provider-Agent-Meta must be a JSON object") from exc
        if not isinstance(meta, dict):
            raise ApiError("bad_request", "X-Provider-Agent-Meta must be a JSON object")
    allowed = runtime.settings.provider_allowlist_set
    if provider_id is not None and allowed and provider_id not in allowed:
        raise ApiError("provider_not_allowed", f"provider {provider_id!r} is not on this server's allowlist")
    return Provider(provider_id, meta)


ProviderDep = Annotated[Provider, Depends(get_provider)]


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def get_owner_id(
    runtime: RuntimeDep,
    cookie: Annotated[str | None, Cookie(alias=COOKIE, description="owner session (browsers)")] = None,
) -> str | None:
    """The logged-in owner, or None; a forged or expired cookie simply means "not logged in"."""
    return runtime.sessions.owner_id(cookie)


OwnerIdDep = Annotated[str | None, Depends(get_owner_id)]


def require_same_origin(request: Request, runtime: Runtime) -> None:
    """CSRF defence for cookie-authorised POSTs: Origin (or Referer) must be this site."""
    own = {runtime.settings.base_url, f"{request.url.scheme}://{request.url.netloc}"}
    check_same_origin(request.headers.get("origin"), request.headers.get("referer"), own)
