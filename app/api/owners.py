"""Owner accounts, sessions, the claim API and the owner's dashboards (identity.md §5, §15.1–§15.2)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.api.deps import (
    OwnerIdDep,
    RuntimeDep,
    client_ip,
    current_agent,
    require_same_origin,
    require_session_safe,
)
from app.api.errors import responses
from app.api.idempotency import mark_unchanged
from app.api.schemas import DisplayName
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.identity import my as my_service
from app.services.identity import owners as service
from app.services.identity.sessions import COOKIE, allowed_return_to, safe_redirect

router = APIRouter(prefix="/api", tags=["owners"], responses=responses("invalid_api_key"),
                   dependencies=[Depends(current_agent)])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="ignore")
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)
    nickname: DisplayName = Field(default=None, max_length=64)


class OwnerOut(BaseModel):
    owner_id: str
    username: str
    nickname: str


class LoggedIn(BaseModel):
    ok: bool
    owner: OwnerOut


class SessionOut(BaseModel):
    logged_in: bool
    owner: OwnerOut | None


class Ok(BaseModel):
    ok: bool


class ClaimPreview(BaseModel):
    model_config = ConfigDict(extra="allow")
    agent_id: str
    name: str
    display_name: str | None
    claimed: bool


class ClaimInfo(BaseModel):
    agent: ClaimPreview
    return_to: str | None


class Claimed(BaseModel):
    ok: bool
    agent: ClaimPreview
    my_url: str
    return_to: str | None


class MyAgents(BaseModel):
    owner: OwnerOut
    agents: list[dict[str, Any]]


class MyMatches(BaseModel):
    matches: list[dict[str, Any]]


class RotatedKey(BaseModel):
    name: str = Field(description="the agent's handle")
    api_key: str = Field(description="its new API key, shown once; the old one is refused from now on")
    api_key_prefix: str


def set_session(response: Response, runtime: Runtime, owner_id: str) -> None:
    """The session cookie: signed, HttpOnly, SameSite=Lax, Secure on https, `session_days` long."""
    signer = runtime.sessions
    response.set_cookie(COOKIE, signer.sign(owner_id), max_age=signer.max_age, httponly=True, samesite="lax",
                        secure=signer.secure, path="/")


def require_owner(owner_id: str | None) -> str:
    if owner_id is None:
        raise ApiError("login_required", "log in first (owner session cookie)")
    return owner_id


@router.post("/owners", status_code=201, response_model=LoggedIn, summary="Sign up as an owner (logs you in)",
             responses=responses("name_taken", "bad_request"))
async def sign_up(body: Credentials, request: Request, response: Response, runtime: RuntimeDep) -> dict[str, Any]:
    require_session_safe(request, runtime)
    limit_accounts(runtime, request, "signup")
    owner = await service.create_account(runtime, body.username, body.password, body.nickname)
    set_session(response, runtime, owner.owner_id)
    return {"ok": True, "owner": service.owner_body(owner)}


def limit_accounts(runtime: Runtime, request: Request, bucket: str) -> None:
    """Per-IP caps on password attempts and sign-ups (argon2 is expensive, guessing should be too)."""
    settings = runtime.settings
    if bucket == "signup":
        runtime.limiter.hit("signup", client_ip(request), settings.rate_limit_registrations_per_hour, 3600)
    else:
        runtime.limiter.hit("login", client_ip(request), settings.rate_limit_logins_per_minute, 60)


@router.post("/auth/login", response_model=LoggedIn, summary="Log in (JSON, or an HTML form → 303)",
             responses=responses("login_required", "cross_origin"),
             openapi_extra={"requestBody": {"content": {
                 "application/json": {"schema": {"$ref": "#/components/schemas/Credentials"}},
                 "application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/Credentials"}}}}})
async def log_in(request: Request, runtime: RuntimeDep) -> Any:
    form = require_session_safe(request, runtime)  # login CSRF: a foreign page must not log a browser in
    limit_accounts(runtime, request, "login")
    raw = dict(await request.form()) if form else await _json_body(request)
    try:
        creds = Credentials.model_validate(raw)
    except ValidationError as exc:
        raise ApiError("bad_request", "send a JSON object or a form with username and password",
                       errors=[{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()]) from exc
    owner = await service.log_in(runtime, creds.username, creds.password)
    if form:
        redirect = RedirectResponse(safe_redirect(str(raw.get("redirect") or "")), status_code=303)
        set_session(redirect, runtime, owner.owner_id)
        return redirect
    response = JSONResponse({"ok": True, "owner": service.owner_body(owner)})
    set_session(response, runtime, owner.owner_id)
    return response


async def _json_body(request: Request) -> Any:
    try:
        return await request.json()
    except ValueError as exc:
        raise ApiError("bad_request", "the body must be JSON") from exc


@router.post("/auth/logout", response_model=Ok, summary="Log out (deletes the session cookie)",
             responses=responses("cross_origin"))
async def log_out(request: Request, response: Response, runtime: RuntimeDep, owner_id: OwnerIdDep) -> dict[str, Any]:
    require_same_origin(request, runtime)
    if owner_id is None:
        mark_unchanged(request)  # nobody was logged in: an Idempotency-Key keeps no row for it
    response.delete_cookie(COOKIE, path="/")
    return {"ok": True}


@router.get("/auth/session", response_model=SessionOut, summary="Who is logged in")
async def current_session(runtime: RuntimeDep, owner_id: OwnerIdDep) -> dict[str, Any]:
    if owner_id is None:
        return {"logged_in": False, "owner": None}
    owner = await service.session_owner(runtime, owner_id)
    return {"logged_in": owner is not None, "owner": service.owner_body(owner) if owner else None}


@router.get("/agents/claim/{token}", response_model=ClaimInfo, summary="Which agent a claim link binds",
            responses=responses("claim_token_invalid"))
async def claim_info(token: str, runtime: RuntimeDep, return_to: str | None = None) -> dict[str, Any]:
    return {"agent": await service.claim_info(runtime, token),
            "return_to": allowed_return_to(return_to, runtime.settings.return_to_host_set)}


@router.post("/agents/claim/{token}", response_model=Claimed, summary="Claim the agent for the logged-in owner",
             responses=responses("login_required", "claim_token_invalid", "already_claimed", "cross_origin"))
async def claim(token: str, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep,
                return_to: str | None = None) -> dict[str, Any]:
    owner = require_owner(owner_id)
    require_same_origin(request, runtime)
    return {"ok": True, "agent": await service.claim(runtime, token, owner),
            "my_url": f"{runtime.settings.base_url}/my",
            "return_to": allowed_return_to(return_to, runtime.settings.return_to_host_set)}


@router.get("/my/agents", response_model=MyAgents, summary="Your agents", responses=responses("login_required"))
async def my_agents(runtime: RuntimeDep, owner_id: OwnerIdDep) -> dict[str, Any]:
    return await my_service.agents(runtime, require_owner(owner_id))


@router.post("/my/agents/{name}/rotate-key", response_model=RotatedKey, summary="A new API key for one of your agents",
             responses=responses("login_required", "cross_origin", "agent_not_found", "owner_suspended"))
async def rotate_agent_key(name: str, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep) -> dict[str, Any]:
    """As the agent's owner (a session): its key leaked or was lost. The old key is refused everywhere at once."""
    owner = require_owner(owner_id)
    require_same_origin(request, runtime)
    return await my_service.rotate_key(runtime, owner, name)


@router.get("/my/matches", response_model=MyMatches, summary="Matches of your agents",
            responses=responses("login_required"))
async def my_matches(runtime: RuntimeDep, owner_id: OwnerIdDep,
                     limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
    return await my_service.matches(runtime, require_owner(owner_id), limit)
