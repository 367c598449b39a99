"""Dependencies: the runtime, the caller's identity, provider headers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Cookie, Depends, Header, Request

from app.api.edge import MAX_META_BYTES, strict_json
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.identity import agents as agent_service
from app.services.identity.agents import Agent
from app.services.identity.sessions import COOKIE, check_same_origin
from app.services.identity.tokens import digest, digests_match
from app.settings import LOCAL_HOSTS, Settings, forwarded_client


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
    last minute is trusted from memory (`app.services.identity.key_cache`; a rotation forgets it everywhere at once)."""
    return await agent_service.playing_agent(runtime, authorization)


PlayingAgentDep = Annotated[Agent | None, Depends(playing_agent)]


MAX_PROVIDER_ID = 64  # the column's length


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
    if provider_id is not None and (len(provider_id) > MAX_PROVIDER_ID
                                    or not all(ch.isascii() and ch.isprintable() for ch in provider_id)):
        raise ApiError("bad_request", f"X-Provider-Id must be at most {MAX_PROVIDER_ID} printable ASCII characters",
                       field="X-Provider-Id")
    meta = None
    if agent_meta is not None:
        if len(agent_meta) > MAX_META_BYTES:
            raise ApiError("bad_request", f"X-Provider-Agent-Meta is larger than {MAX_META_BYTES} bytes",
                           field="X-Provider-Agent-Meta")
        # Header values arrive as latin-1; a proxy sends its JSON as UTF-8 bytes.
        meta = strict_json(agent_meta.encode("latin-1"), "X-Provider-Agent-Meta")
        if not isinstance(meta, dict):
            raise ApiError("bad_request", "X-Provider-Agent-Meta must be a JSON object", field="X-Provider-Agent-Meta")
    allowed = runtime.settings.provider_allowlist_set
    if provider_id is not None and allowed and provider_id not in allowed:
        raise ApiError("provider_not_allowed", f"provider {provider_id!r} is not on this server's allowlist")
    return Provider(provider_id, meta)


ProviderDep = Annotated[Provider, Depends(get_provider)]


def check_token(expected: str, authorization: str | None, what: str) -> None:
    """An operator's `Authorization: Bearer <expected>` (`/metrics`, the operator API): 401 `auth_required` without
    one, 401 `invalid_operator_token` for another (compared in constant time)."""
    if authorization is None:
        raise ApiError("auth_required", f"{what} needs Authorization: Bearer <token>")
    scheme, _, presented = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not digests_match(presented.strip(), digest(expected)):
        raise ApiError("invalid_operator_token", f"wrong token for {what}")


def client_ip(request: Request) -> str:
    """The address per-IP limits count: the socket's peer, unless that peer is a trusted proxy
    (`WODI_TRUSTED_PROXIES`); then the right-most `X-Forwarded-For` entry that is not itself a trusted proxy."""
    peer = request.client.host if request.client else "unknown"
    settings: Settings = request.app.state.runtime.settings
    return forwarded_client(peer, request.headers.getlist("x-forwarded-for"), settings.trusted_proxy_networks)


async def get_owner_id(
    runtime: RuntimeDep,
    cookie: Annotated[str | None, Cookie(alias=COOKIE, description="owner session (browsers)")] = None,
) -> str | None:
    """The logged-in owner, or None; a forged or expired cookie simply means "not logged in"."""
    return runtime.sessions.owner_id(cookie)


OwnerIdDep = Annotated[str | None, Depends(get_owner_id)]


def require_same_origin(request: Request, runtime: Runtime) -> None:
    """CSRF defence for cookie-authorised POSTs: Origin (or Referer) must be this site — its public base URL, or
    the address the request was sent to when that is a loopback one (`localhost` beside `127.0.0.1` on a laptop).
    Another name in the request's own Host is not trusted: under DNS rebinding a foreign page sends both."""
    own = {runtime.settings.base_url}
    if (request.url.hostname or "") in LOCAL_HOSTS:
        own.add(f"{request.url.scheme}://{request.url.netloc}")
    check_same_origin(request.headers.get("origin"), request.headers.get("referer"), own)


def require_session_safe(request: Request, runtime: Runtime) -> bool:
    """Login CSRF defence for a request that sets the session cookie; True when it is an HTML form.

    A form must come from one of our pages (Origin/Referer). Anything else must declare `application/json` — which
    a foreign page cannot send without a CORS preflight this server never grants — and, if a browser says where it
    comes from, come from here too."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        require_same_origin(request, runtime)
        return True
    if kind != "application/json":
        raise ApiError("bad_request", "send the body as Content-Type: application/json (or an HTML form)",
                       field="content-type")
    if request.headers.get("origin") is not None:
        require_same_origin(request, runtime)
    return False
