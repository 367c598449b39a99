"""Benchmark runs and trajectory exports (issue 30; `docs/agents/measure.md`)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from app.api.benchmark_schemas import BenchmarkCreate, BenchmarkList, BenchmarkView
from app.api.deps import CurrentAgentDep, OwnerIdDep, PlayingAgentDep, PlayTokenHeader, RuntimeDep, playing_agent
from app.api.errors import responses
from app.protocol.errors import ApiError
from app.services.identity import owners as owner_service
from app.services.match.seating import Caller
from app.services.platform import benchmark_reads as reads
from app.services.platform import benchmarks as service
from app.services.platform import trajectories

router = APIRouter(prefix="/api", tags=["benchmarks"], dependencies=[Depends(playing_agent)])
NDJSON = "application/x-ndjson"
NDJSON_DOC: dict[int | str, dict[str, Any]] = {200: {"content": {NDJSON: {"schema": {"type": "string"}}},
                    "description": "one JSON object a line, one line per decision (docs/agents/measure.md)"}}


def _ndjson(lines: Iterable[dict[str, Any]]) -> Response:
    body = "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines)
    return Response(body, media_type=NDJSON)


@router.post("/benchmarks", status_code=201, response_model=BenchmarkView, summary="Start a benchmark run",
             responses=responses("auth_required", "invalid_api_key", "invalid_config", "benchmark_running",
                                 "already_in_match"))
async def create(body: BenchmarkCreate, runtime: RuntimeDep, agent: CurrentAgentDep) -> dict[str, Any]:
    if agent is None:
        raise ApiError("auth_required", "this endpoint needs Authorization: Bearer <api_key>")
    runtime.limiter.hit("benchmarks", agent.agent_id, runtime.settings.rate_limit_benchmarks_per_hour, 3600)
    try:
        benchmark_id = await service.create(runtime, agent, body.model_dump(exclude_none=True))
    except ApiError:  # only runs that start count against the hour's runs: a refused request made nothing
        runtime.limiter.refund("benchmarks", agent.agent_id)
        raise
    return await reads.view(runtime, benchmark_id)


@router.get("/benchmarks/{benchmark_id}", response_model=BenchmarkView, summary="A benchmark run and its report",
            responses=responses("benchmark_not_found", "invalid_api_key"))
async def get(benchmark_id: str, runtime: RuntimeDep) -> dict[str, Any]:
    return await reads.view(runtime, benchmark_id)


@router.post("/benchmarks/{benchmark_id}/cancel", response_model=BenchmarkView, summary="Cancel your benchmark run",
             responses=responses("auth_required", "invalid_api_key", "benchmark_not_found", "not_your_benchmark"))
async def cancel(benchmark_id: str, runtime: RuntimeDep, agent: CurrentAgentDep) -> dict[str, Any]:
    """Stops the run (`status` `stopped`, `ended_reason` `cancelled`) and concedes its live match for the agent, which
    is free for other tables at once. A run that has already ended answers as it is."""
    if agent is None:
        raise ApiError("auth_required", "this endpoint needs Authorization: Bearer <api_key>")
    await service.cancel(runtime, agent, benchmark_id)
    return await reads.view(runtime, benchmark_id)


@router.get("/agents/{name}/benchmarks", response_model=BenchmarkList, summary="An agent's benchmark runs",
            responses=responses("agent_not_found", "invalid_api_key"))
async def of_agent(name: str, runtime: RuntimeDep) -> dict[str, Any]:
    return {"benchmarks": await reads.of_agent(runtime, name)}


@router.get("/benchmarks/{benchmark_id}/trajectories", response_class=Response,
            responses={**NDJSON_DOC, **responses("benchmark_not_found", "invalid_api_key")},
            summary="Every trajectory of a run's matches (NDJSON)")
async def bundle(benchmark_id: str, runtime: RuntimeDep, agent: PlayingAgentDep = None) -> Response:
    return _ndjson(await reads.bundle(runtime, benchmark_id, agent.agent_id if agent else None))


@router.get("/matches/{match_id}/trajectories", response_class=Response, summary="A match's trajectories (NDJSON)",
            responses={**NDJSON_DOC, **responses("match_not_found", "auth_required", "invalid_play_token",
                                                 "agent_not_in_match", "trajectory_hidden", "owner_cannot_act")})
async def of_match(match_id: str, runtime: RuntimeDep, owner_id: OwnerIdDep,
                   seat: Annotated[int | None, Query(ge=0, description="one seat (default: every seat you may read)")]
                   = None, agent: PlayingAgentDep = None, play_token: PlayTokenHeader = None) -> Response:
    owned = await owner_service.owned_agent_ids(runtime, owner_id) if owner_id else frozenset()
    caller = Caller(agent=agent, play_token=play_token if agent is None else None, owner_id=owner_id,
                    owner_agent_ids=owned)
    return _ndjson(await trajectories.of_match(runtime, match_id, caller, seat))
