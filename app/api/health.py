"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import RuntimeDep
from app.api.errors import responses
from app.api.schemas import Health
from app.services.platform.health import database_ready

router = APIRouter(tags=["health"], responses=responses())


@router.get("/healthz", response_model=Health, summary="Liveness: the process answers")
async def healthz() -> Health:
    return Health(status="ok")


@router.get("/readyz", response_model=Health, summary="Readiness: the database answers",
            responses=responses("service_unavailable"))
async def readyz(runtime: RuntimeDep) -> Health:
    return Health(status="ok", detail={"database": await database_ready(runtime)})
