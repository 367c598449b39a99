"""Match endpoints (spec §2.1–§2.8, §1 #15)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import Response

from app.api.deps import OwnerIdDep, PlayingAgentDep, PlayTokenHeader, ProviderDep, RuntimeDep, client_ip, playing_agent
from app.api.errors import responses
from app.api.match_schemas import (
    Aborted,
    ActionAccepted,
    CreateMatch,
    EventsPage,
    Filling,
    JoinMatch,
    MatchCreated,
    MatchJoined,
    MatchList,
    Snapshot,
)
from app.api.sitting import sitter_of
from app.runtime import Runtime
from app.services.identity import agents as agent_service
from app.services.identity import owners as owner_service
from app.services.identity.agents import Agent
from app.services.match import listing, quick_start
from app.services.match import match_reads as reads
from app.services.match import matches as service
from app.services.match.seating import Caller

router = APIRouter(prefix="/api/matches", tags=["matches"], responses=responses("invalid_api_key"),
                   dependencies=[Depends(playing_agent)])

SEAT_ERRORS = ("auth_required", "invalid_api_key", "already_in_match", "same_agent_already_in_match",
               "same_owner_already_in_match", "provider_not_allowed", "room_agents_only", "room_people_only")
ACT_ERRORS = ("auth_required", "invalid_api_key", "invalid_play_token", "agent_not_in_match", "match_not_found",
              "owner_cannot_act", "you_are_eliminated", "match_finished", "match_not_in_progress")
JSON = "application/json"
ACTION_BODY = ("one of the match's game's actions (`type` names it; `GET /api/games` lists each game's): the "
               "schema is the union of every game's action bodies; an unknown field is refused with 400 "
               "`bad_request`. `you.allowed_actions` says what your seat may send now. Besides the action's "
               "own fields, any action may carry `expected_seq` (409 `stale_state` when the match moved past "
               "it) and an optional `usage` `{input_tokens, output_tokens, model, cost_usd?}` (what the decision "
               "cost; private to the seat until the end; never passed to the game)")
READ_ERRORS = ("invalid_api_key", "invalid_play_token", "match_not_found")
# the host's commands on a waiting room: no seat is acting, so neither elimination nor a running match is asked for
HOST_ERRORS = tuple(code for code in ACT_ERRORS if code not in ("you_are_eliminated", "match_not_in_progress"))
Wait = Annotated[float, Query(ge=0, description="long-poll seconds (capped at 30)")]


async def _caller(runtime: Runtime, agent: Agent | None, play_token: str | None,
                  owner_id: str | None = None) -> Caller:
    owned = await owner_service.owned_agent_ids(runtime, owner_id) if owner_id else frozenset()
    if agent is not None:  # a read is an authenticated request too (identity.md: a valid key bumps it)
        await agent_service.mark_seen(runtime, agent)
    return Caller(agent=agent, play_token=play_token if agent is None else None, owner_id=owner_id,
                  owner_agent_ids=owned)


async def _writer(runtime: Runtime, agent: Agent | None, play_token: str | None,
                  owner_id: str | None = None, ip: str = "") -> Caller:
    caller = await _caller(runtime, agent, play_token, owner_id)
    # An unchecked play token is no identity: count those writes per client IP.
    key = caller.agent.agent_id if caller.agent else f"ip:{ip}"
    runtime.limiter.hit("writes", key, runtime.settings.rate_limit_writes_per_minute, 60)
    return caller


@router.post("", status_code=201, response_model=MatchCreated, summary="Create a match (you take seat 0)",
             responses=responses("invalid_config", "identity_required", "cross_origin", *SEAT_ERRORS))
async def create_match(body: CreateMatch, request: Request, runtime: RuntimeDep, provider: ProviderDep,
                       owner_id: OwnerIdDep, agent: PlayingAgentDep = None) -> dict[str, Any]:
    sitter = await sitter_of(request, runtime, agent, owner_id, body.player)
    runtime.limiter.hit("matches", client_ip(request), runtime.settings.rate_limit_matches_per_hour, 3600)
    applied, token = await service.create(runtime, sitter, body.model_dump(), _seat_meta(body.player, provider))
    match = applied.match
    return {"match_id": match.match_id, "game": match.game, "seat": 0, "play_token": token,
            "invite_url": runtime.settings.match_url(match.match_id), "status": match.status, "config": match.config,
            "seats_open": match.n_players - match.seats_taken}


def _seat_meta(player: Any, provider: Any) -> dict[str, Any]:
    return {**provider.as_seat_meta(), "player_meta": (player.meta if player else None)}


@router.post("/{match_id}/join", response_model=MatchJoined, summary="Join a waiting match",
             responses=responses("match_not_found", "match_full", "match_not_waiting", "duplicate_player",
                                 "guest_already_seated", "identity_required", "cross_origin", *SEAT_ERRORS))
async def join_match(match_id: str, request: Request, runtime: RuntimeDep, provider: ProviderDep,
                     owner_id: OwnerIdDep, body: JoinMatch | None = None,
                     agent: PlayingAgentDep = None) -> dict[str, Any]:
    player = body.player if body else None
    sitter = await sitter_of(request, runtime, agent, owner_id, player)
    if agent is None:  # people's seats count against the client IP, as rooms do
        runtime.limiter.hit("matches", client_ip(request), runtime.settings.rate_limit_matches_per_hour, 3600)
    request_body = {"player": player.model_dump() if player else None}
    applied, token = await service.join(runtime, match_id, sitter, request_body, _seat_meta(player, provider))
    match = applied.match
    return {"match_id": match.match_id, "seat": applied.seat, "play_token": token, "status": match.status,
            "phase": match.phase, "seats_open": match.n_players - match.seats_taken,
            "invite_url": runtime.settings.match_url(match.match_id)}


@router.post("/{match_id}/action", response_model=ActionAccepted, summary="Act: speak, vote, skip, whisper, …",
             responses=responses(*ACT_ERRORS, "whisper_not_enabled", "whisper_target_not_fellow", "wrong_phase",
                                 "not_your_turn_to_speak", "already_voted", "invalid_target", "text_too_long",
                                 "speech_looks_like_instruction",
                                 "stale_state"))
async def act(match_id: str, body: Annotated[dict[str, Any], Body(description=ACTION_BODY)], request: Request,
              runtime: RuntimeDep, provider: ProviderDep, owner_id: OwnerIdDep, agent: PlayingAgentDep = None,
              play_token: PlayTokenHeader = None) -> dict[str, Any]:
    return await action_answer(runtime, match_id, body, agent, play_token, owner_id, client_ip(request))


async def action_answer(runtime: Runtime, match_id: str, body: dict[str, Any], agent: Agent | None,
                        play_token: str | None, owner_id: str | None, ip: str) -> dict[str, Any]:
    """`POST /action` once its caller is known (the route, and `app.api.hot` beneath the router)."""
    caller = await _writer(runtime, agent, play_token, owner_id, ip)
    return _accepted(runtime, await service.act(runtime, match_id, caller, body))


def _accepted(runtime: Runtime, applied: service.Applied) -> dict[str, Any]:
    seat = cast(int, applied.seat)  # a seated command's result always names the seat that acted
    extra = applied.game.action_response(applied.state, seat, applied.events)
    if extra.get("result"):
        extra["result"] = {**extra["result"], "replay_url": runtime.settings.match_url(applied.match.match_id)}
    seq = applied.events[0]["seq"] if applied.events else applied.match.events_total
    return {"accepted": True, "seq": seq, "phase": applied.phase or applied.match.phase, **extra,
            **(applied.reply or {})}


@router.post("/{match_id}/concede", response_model=ActionAccepted, summary="Concede: leave now, role revealed",
             responses=responses(*ACT_ERRORS))
async def concede(match_id: str, request: Request, runtime: RuntimeDep, provider: ProviderDep, owner_id: OwnerIdDep,
                  agent: PlayingAgentDep = None, play_token: PlayTokenHeader = None) -> dict[str, Any]:
    caller = await _writer(runtime, agent, play_token, owner_id, client_ip(request))
    return _accepted(runtime, await service.concede(runtime, match_id, caller))


@router.post("/{match_id}/abort", response_model=Aborted, summary="Host cancels a waiting match",
             responses=responses(*HOST_ERRORS, "not_host", "match_not_waiting"))
async def abort(match_id: str, request: Request, runtime: RuntimeDep, provider: ProviderDep, owner_id: OwnerIdDep,
                agent: PlayingAgentDep = None, play_token: PlayTokenHeader = None) -> dict[str, Any]:
    # The owner's cookie is read so that it is refused as the protocol says (403 owner_cannot_act), not unseen.
    caller = await _writer(runtime, agent, play_token, owner_id, client_ip(request))
    applied = await service.abort(runtime, match_id, caller)
    return {"match_id": match_id, "status": applied.match.status, "result": applied.match.result}


@router.post("/{match_id}/fill", response_model=Filling, summary="Host calls the official bots in for the open seats",
             responses=responses(*HOST_ERRORS, "not_host", "match_not_waiting", "seats_left_for_players",
                                 "room_people_only", "bots_unavailable"))
async def fill(match_id: str, request: Request, runtime: RuntimeDep, provider: ProviderDep, owner_id: OwnerIdDep,
               agent: PlayingAgentDep = None, play_token: PlayTokenHeader = None) -> dict[str, Any]:
    """The host (seat 0) of a waiting room asks the official bots to take every open seat now, instead of waiting
    `WODI_BOT_FILL_AFTER`: a room of friends starts with bots in the seats nobody took. The room must take agents
    and leave the bots no more seats than its `bot_seats` in the room list (a game may cap them)."""
    caller = await _writer(runtime, agent, play_token, owner_id, client_ip(request))
    match = await quick_start.fill(runtime, match_id, caller)
    return {"match_id": match_id, "status": match.status, "fill_now": bool(match.fill_now),
            "seats_open": match.n_players - match.seats_taken}


@router.get("/{match_id}", response_model=Snapshot,
            summary="Snapshot for this viewer (long-poll with wait / wait_for)", responses=responses(*READ_ERRORS))
async def get_match(match_id: str, runtime: RuntimeDep, owner_id: OwnerIdDep, wait: Wait = 0,
                    wait_for: Annotated[str | None, Query(description=", ".join(reads.WAIT_FOR))] = None,
                    since: Annotated[int | None, Query(ge=0, description=(
                        "optional: the `events_total` of the last snapshot you read; `wait_for=any_change` then "
                        "answers once the match has an event after it (at once if it moved meanwhile)"))] = None,
                    agent: PlayingAgentDep = None, play_token: PlayTokenHeader = None) -> Response:
    # Hot long-poll path: the dict is built by the projection already; skip re-validating it.
    return Response(await snapshot_answer(runtime, match_id, agent, play_token, owner_id, wait, wait_for, since),
                    media_type=JSON)


async def snapshot_answer(runtime: Runtime, match_id: str, agent: Agent | None, play_token: str | None,
                          owner_id: str | None, wait: float, wait_for: str | None, since: int | None = None) -> bytes:
    """`GET /api/matches/{id}` once its caller is known (the route, and `app.api.hot` beneath the router)."""
    caller = await _caller(runtime, agent, play_token, owner_id)
    return await reads.read_snapshot(runtime, match_id, caller, wait, wait_for, since)


@router.get("/{match_id}/events", response_model=EventsPage, summary="Events after `since` (long-poll with wait)",
            responses=responses(*READ_ERRORS))
async def get_events(match_id: str, runtime: RuntimeDep, owner_id: OwnerIdDep,
                     since: Annotated[int, Query(ge=0)] = 0, wait: Wait = 0,
                     agent: PlayingAgentDep = None, play_token: PlayTokenHeader = None) -> Response:
    return Response(await events_answer(runtime, match_id, agent, play_token, owner_id, since, wait),
                    media_type=JSON)


async def events_answer(runtime: Runtime, match_id: str, agent: Agent | None, play_token: str | None,
                        owner_id: str | None, since: int, wait: float) -> bytes:
    """`GET /api/matches/{id}/events` once its caller is known (the route, and `app.api.hot`)."""
    caller = await _caller(runtime, agent, play_token, owner_id)
    return await reads.read_events(runtime, match_id, caller, since, wait)


@router.get("", response_model=MatchList, summary="List matches")
async def list_matches(
    runtime: RuntimeDep,
    status: Literal["waiting", "in_progress", "finished", "aborted"] | None = None,
    sort: Literal["newest", "oldest"] = "newest",
    agent: str | None = None,
    game: str | None = None,
    seats_open: Annotated[int | None, Query(ge=0, le=12)] = None,
    fill_now: Annotated[bool | None, Query(description="only rooms the official bots fill at once (or not)")] = None,
    showcase: Annotated[bool | None, Query(description="only the platform's showcases (or none)")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    matches = await listing.list_matches(runtime, status=status, newest_first=sort == "newest", agent=agent,
                                         game=game, seats_open=seats_open, limit=limit, fill_now=fill_now,
                                         showcase=showcase)
    return {"matches": matches, "count": len(matches)}
