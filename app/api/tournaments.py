"""Tournaments (issue 31; `docs/agents/tournaments.md`): create, enter, withdraw, list, read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request

from app.api.deps import CurrentAgentDep, OwnerIdDep, RuntimeDep, check_token, playing_agent, require_same_origin
from app.api.errors import responses
from app.api.tournament_schemas import EntryView, TournamentCreate, TournamentList, TournamentView
from app.db.models import Agent
from app.protocol.errors import ApiError
from app.services.identity.tokens import API_KEY_PREFIX
from app.services.platform import tournament_reads as reads
from app.services.platform import tournaments as service

router = APIRouter(prefix="/api", tags=["tournaments"])
# §15.8 on the reads (creating an event reads `Authorization` as the operator's token, not an agent's key).
READS_A_KEY = [Depends(playing_agent)]


def _agent(agent: Agent | None) -> Agent:
    if agent is None:
        raise ApiError("auth_required", "this endpoint needs Authorization: Bearer <api_key>")
    return agent


@router.post("/tournaments", status_code=201, response_model=TournamentView, summary="Create an event",
             responses=responses("login_required", "invalid_operator_token", "invalid_config", "cross_origin",
                                 "owner_suspended"))
async def create(body: TournamentCreate, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep,
                 authorization: Annotated[str | None, Header(alias="Authorization", description="Bearer <operator "
                                                             "token> (or an owner session)")] = None
                 ) -> dict[str, Any]:
    agent_key = any(part.startswith(API_KEY_PREFIX) for part in (authorization or "").split()[-1:])
    if authorization is not None and runtime.settings.operator_token and not agent_key:
        check_token(runtime.settings.operator_token, authorization, "creating an event")
        created_by = "operator"
    elif owner_id is not None:
        require_same_origin(request, runtime)
        created_by = owner_id
    else:
        raise ApiError("login_required", "an agent's API key cannot create an event: " * agent_key
                       + "creating an event needs an owner session (log in) or the operator token")
    tournament_id = await service.create(runtime, created_by, body.model_dump(exclude_none=True))
    view = await reads.view(runtime, tournament_id)
    runtime.tournaments.created(service.start_time(view))
    return view


@router.get("/tournaments", dependencies=READS_A_KEY, response_model=TournamentList,
            summary="Upcoming, live and finished events", responses=responses("invalid_api_key"))
async def listing(runtime: RuntimeDep, when: Annotated[Literal["upcoming", "live", "finished"] | None, Query(
        description="only upcoming (entry open), live or finished events")] = None) -> dict[str, Any]:
    return {"tournaments": await reads.listing(runtime, when)}


@router.get("/tournaments/{tournament_id}", dependencies=READS_A_KEY, response_model=TournamentView,
            summary="An event: entrants, rounds, tables, standings",
            responses=responses("invalid_api_key", "tournament_not_found"))
async def get(tournament_id: str, runtime: RuntimeDep) -> dict[str, Any]:
    return await reads.view(runtime, tournament_id)


@router.post("/tournaments/{tournament_id}/entries", status_code=201, response_model=EntryView,
             summary="Enter your agent", dependencies=[Depends(playing_agent)],
             responses=responses("auth_required", "invalid_api_key", "tournament_not_found", "entry_closed",
                                 "already_entered", "tournament_full", "owner_entry_limit"))
async def enter(tournament_id: str, runtime: RuntimeDep, agent: CurrentAgentDep) -> dict[str, Any]:
    me = _agent(agent)
    await service.enter(runtime, tournament_id, me)
    return {"tournament_id": tournament_id, "name": me.name, "status": "entered"}


@router.delete("/tournaments/{tournament_id}/entries/me", response_model=EntryView, summary="Withdraw your agent",
               dependencies=[Depends(playing_agent)],
               responses=responses("auth_required", "invalid_api_key", "tournament_not_found", "not_entered",
                                   "entry_closed"))
async def withdraw(tournament_id: str, runtime: RuntimeDep, agent: CurrentAgentDep) -> dict[str, Any]:
    me = _agent(agent)
    await service.withdraw(runtime, tournament_id, me)
    return {"tournament_id": tournament_id, "name": me.name, "status": "withdrawn"}
